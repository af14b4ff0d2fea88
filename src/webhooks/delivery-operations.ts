/**
 * The admin's view of deliveries (docs/webhooks.md): list them, and put one back to pending, due now.
 * REST and the Local API call these; only admins pass (API keys also need a `webhook-deliveries` scope).
 */
import { scopeAllows } from '../access/key-limits.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../errors.ts';
import type { OperationContext } from '../operation-context.ts';
import type { PaginatedDocs } from '../operations/find.ts';
import { DEFAULT_LIMIT } from '../query/request-options.ts';
import { checkPaging, pageInfo } from '../query/page-info.ts';
import { DELIVERIES_TABLE, type DeliveryRow, type DeliveryState } from '../db/deliveries-table.ts';
import {
  countDeliveries,
  deliveriesTableExists,
  findDelivery,
  listDeliveryRows,
  requeueDelivery,
} from './delivery-store.ts';
import { hasRoom, startDelivery } from './start-webhooks.ts';
import { webhookRuntime } from './webhook-runtime.ts';

export type DeliveryView = Record<string, unknown>;

async function authorize(ctx: OperationContext, action: 'read' | 'update'): Promise<void> {
  const { cms } = ctx;
  if (cms.config.webhooks.length === 0 || !(await deliveriesTableExists(cms.store))) throw notFound();
  if (ctx.overrideAccess) return;
  if (!ctx.user) throw unauthorized();
  if (ctx.user.role !== 'admin') throw forbidden();
  if (ctx.scopes && !scopeAllows(ctx.scopes, DELIVERIES_TABLE, action))
    throw forbidden('This API key is not allowed to perform this action.');
}

export function presentDelivery(row: DeliveryRow): DeliveryView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  // A row being sent is due again (for another runner) when its lease ends.
  const next = row.state === 'pending' ? row.nextAttemptAt : row.state === 'sending' ? row.leaseUntil : null;
  return {
    id: row.id,
    event: row.event,
    url: row.url,
    ...(row.global !== null ? { global: row.global } : { collection: row.collection }),
    docId: row.docId,
    state: row.state,
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: iso(next),
    createdAt: iso(row.createdAt),
  };
}

const STATES: readonly DeliveryState[] = ['pending', 'sending', 'failed'];

/** `state` narrows the list to one state (the admin's filter); anything else is a 400 naming `state`. */
export async function listDeliveries(
  ctx: OperationContext,
  args: { limit?: number; page?: number; state?: unknown } = {},
): Promise<PaginatedDocs> {
  await authorize(ctx, 'read');
  const limit = args.limit ?? DEFAULT_LIMIT;
  const page = args.page ?? 1;
  checkPaging(limit, page);
  const state =
    args.state === undefined || args.state === ''
      ? undefined
      : (STATES as readonly unknown[]).includes(args.state)
        ? (args.state as DeliveryState)
        : null;
  if (state === null) throw badRequest(`state must be one of ${STATES.join(', ')}.`, 'state');
  const totalDocs = await countDeliveries(ctx.cms.store, state);
  const rows = totalDocs === 0 ? [] : await listDeliveryRows(ctx.cms.store, limit, (page - 1) * limit, state);
  return { docs: rows.map(presentDelivery), ...pageInfo(totalDocs, limit, page) };
}

/** Failed (or waiting) → pending, due now, with a fresh retry ladder; this process sends it at once. */
export async function retryDelivery(ctx: OperationContext, id: string): Promise<DeliveryView> {
  await authorize(ctx, 'update');
  const row = await requeueDelivery(ctx.cms.store, id, ctx.cms.clock.now());
  if (!row) {
    if (await findDelivery(ctx.cms.store, id)) throw badRequest('This delivery is being sent right now.');
    throw notFound('Delivery not found.');
  }
  const runtime = webhookRuntime(ctx.cms);
  if (hasRoom(runtime)) startDelivery(runtime, row.id);
  return presentDelivery(row);
}
