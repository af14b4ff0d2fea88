/**
 * The internal event stream: every change an operation commits is announced here, inside its transaction,
 * so a listener (webhooks) can write rows that commit or roll back together with the change, and can
 * schedule work for after the commit.
 */
import type { Store } from '../db/store.ts';

export type ChangeEventType = 'create' | 'update' | 'delete' | 'publish' | 'unpublish' | 'draft';

export type ChangeEvent = {
  type: ChangeEventType;
  collection?: string;
  global?: string;
  id?: number;
  /** The stored document: every locale, hidden fields included (consumers strip what they must). */
  doc: Record<string, unknown>;
  previousDoc: Record<string, unknown> | null;
  timestamp: string;
};

/** Which way a write came in: the transport that built its operation context. */
export type Via = 'rest' | 'graphql' | 'mcp' | 'local' | 'job' | 'cli';

/** Who made a change and how (the audit log records it): plain data taken from the operation context. */
export type WriteOrigin = {
  user: number | null;
  apiKey: number | null;
  via: Via;
  ip: string | null;
  /** What the write is recorded as when it is not the change's own kind (a restore runs as an update). */
  action?: string;
};

export type TransactionScope = {
  /** The change's transaction: every statement of the change and of its listeners goes through it. */
  tx: Store;
  /** The store the transaction belongs to. */
  store: Store;
  /** Who asked for the change, when the operation said (null for system housekeeping). */
  origin: WriteOrigin | null;
  /** Work that must still run inside the transaction, once the change itself is written (in order). */
  beforeCommit(fn: () => Promise<void>): void;
  emit(event: ChangeEvent): Promise<void>;
  afterCommit(fn: () => void): void;
};

export type ChangeListener = (event: ChangeEvent, scope: TransactionScope) => void | Promise<void>;

export function createEventStream() {
  const listeners: ChangeListener[] = [];
  return {
    listeners,
    on(listener: ChangeListener): () => void {
      listeners.push(listener);
      return () => {
        const i = listeners.indexOf(listener);
        if (i >= 0) listeners.splice(i, 1);
      };
    },
  };
}
export type EventStream = ReturnType<typeof createEventStream>;
