/**
 * The `webhook-deliveries` table (docs/webhooks.md). It is derived from the config like a collection
 * table: it exists only when `webhooks` is configured, so adding webhooks adds it through the migration path.
 * Times the job loop compares are epoch milliseconds read from `cms.clock`.
 */
import type { TableModel } from './table-model.ts';

export const DELIVERIES_TABLE = 'webhook-deliveries';

export type DeliveryState = 'pending' | 'sending' | 'failed';

export type DeliveryRow = {
  /** The `x-cms-delivery` value: a UUIDv7, identical on every attempt. */
  id: string;
  event: string;
  url: string;
  /** Position of the target in `config.webhooks` when the change was saved (its `headers` are read from there). */
  target: number;
  collection: string | null;
  global: string | null;
  docId: number | null;
  /** The exact request body; every attempt sends these bytes. */
  body: string;
  /** `sha256=<hex>` computed once from `body`, or null when the target has no secret. */
  signature: string | null;
  state: DeliveryState;
  attempts: number;
  lastError: string | null;
  /** When the next attempt is due (pending rows); null once failed. */
  nextAttemptAt: number | null;
  /** Lease of a `sending` row: another runner may take it over after this time. */
  leaseUntil: number | null;
  createdAt: number;
};

export const deliveriesTable: TableModel = {
  name: DELIVERIES_TABLE,
  columns: [
    { name: 'id', type: 'text', primaryKey: true },
    { name: 'event', type: 'text', notNull: true },
    { name: 'url', type: 'text', notNull: true },
    { name: 'target', type: 'integer', notNull: true },
    { name: 'collection', type: 'text' },
    { name: 'global', type: 'text' },
    { name: 'docId', type: 'integer' },
    { name: 'body', type: 'text', notNull: true },
    { name: 'signature', type: 'text' },
    { name: 'state', type: 'text', notNull: true },
    { name: 'attempts', type: 'integer', notNull: true },
    { name: 'lastError', type: 'text' },
    { name: 'nextAttemptAt', type: 'integer' },
    { name: 'leaseUntil', type: 'integer' },
    { name: 'createdAt', type: 'integer', notNull: true },
  ],
  indexes: [
    // The job loop's question: which pending rows are due, which sending rows have an expired lease.
    { name: 'webhook-deliveries_state_nextAttemptAt_idx', columns: ['state', 'nextAttemptAt'], unique: false },
    { name: 'webhook-deliveries_createdAt_idx', columns: ['createdAt'], unique: false },
  ],
};
