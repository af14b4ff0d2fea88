/**
 * Taking, renewing, reading, taking over and releasing a document lock (docs/content-model.md, "Document
 * locks"). Only logged-in users with update access to the document lock it. A save that carries a lock
 * token (the admin's) is refused with 409 while someone else holds the lock; saves without one (REST
 * clients, the Local API) are never blocked.
 */
import { randomBytes } from 'node:crypto';
import { APIError, unauthorized } from '../errors.ts';
import type { Queryable } from '../db/store.ts';
import {
  deleteLock,
  LOCK_LIFETIME_MS,
  liveLock,
  lockTarget,
  writeLock,
  type LockRow,
} from '../locks/document-locks.ts';
import { selectRowsByIds } from '../db/documents.ts';
import { rowToDoc } from '../fields/row.ts';
import { loadForUpdate, type DocumentRef } from './steps/document-target.ts';
import { parseId } from './steps/entities.ts';
import type { OperationContext } from '../operation-context.ts';

export type LockInfo = {
  user: { id: number; email: string; name: string | null } | null;
  lockedAt: string;
  expiresAt: string;
  mine: boolean;
  token?: string;
};

const targetOf = (ref: DocumentRef) =>
  lockTarget('global' in ref ? ref : { collection: ref.collection, id: parseId(ref.id) });

async function authorize(ctx: OperationContext, ref: DocumentRef): Promise<string> {
  if (!ctx.user) throw unauthorized();
  await loadForUpdate(ctx, ref);
  return targetOf(ref);
}

export async function readLock(
  ctx: OperationContext,
  ref: DocumentRef,
  token?: string,
): Promise<{ lock: LockInfo | null }> {
  const target = await authorize(ctx, ref);
  const row = await liveLock(ctx.cms.store, target, ctx.cms.clock.now());
  return { lock: row ? await describe(ctx, row, token) : null };
}

/**
 * Takes a free or lapsed lock, renews one this token holds (the heartbeat), or with `takeover` takes it
 * from its holder; a lock someone else holds is a 409 naming them.
 */
export async function takeLock(
  ctx: OperationContext,
  ref: DocumentRef,
  options: { token?: string; takeover?: boolean },
): Promise<{ lock: LockInfo }> {
  const target = await authorize(ctx, ref);
  const now = ctx.cms.clock.now();
  const row = await ctx.cms.store.transaction(async (tx) => {
    await tx.lockTable('_cms_locks');
    const held = await liveLock(tx, target, now);
    if (held && held.token !== options.token && !options.takeover) throw await lockedError(ctx, tx, held);
    const token =
      held && held.token === options.token ? held.token : options.token && !held ? options.token : newToken();
    return writeLock(tx, target, token, ctx.user!.id, now);
  });
  return { lock: { ...(await describe(ctx, row, row.token)), token: row.token } };
}

/** Releases the lock this token holds; releasing a lock held by someone else is a 409. */
export async function releaseLock(ctx: OperationContext, ref: DocumentRef, token?: string): Promise<{ lock: null }> {
  const target = await authorize(ctx, ref);
  await ctx.cms.store.transaction(async (tx) => {
    const held = await liveLock(tx, target, ctx.cms.clock.now());
    if (held && held.token !== token) throw await lockedError(ctx, tx, held);
    await deleteLock(tx, target);
  });
  return { lock: null };
}

/** Inside a save's transaction: a save carrying a token is refused while another token holds the lock. */
export async function assertSaveHoldsLock(
  ctx: OperationContext,
  db: Queryable,
  ref: DocumentRef,
  token: string | undefined,
): Promise<void> {
  if (token === undefined) return;
  const held = await liveLock(db, targetOf(ref), ctx.cms.clock.now());
  if (held && held.token !== token) throw await lockedError(ctx, db, held, 'This document was taken over by');
}

async function lockedError(
  ctx: OperationContext,
  db: Queryable,
  row: LockRow,
  prefix = 'This document is being edited by',
): Promise<APIError> {
  const user = await holder(ctx, db, row.user);
  const who = user ? (user.name ? `${user.name} (${user.email})` : user.email) : 'someone else';
  return new APIError(409, `${prefix} ${who}.`, 'lock');
}

async function describe(ctx: OperationContext, row: LockRow, token: string | undefined): Promise<LockInfo> {
  return {
    user: await holder(ctx, ctx.cms.store, row.user),
    lockedAt: new Date(row.lockedAt).toISOString(),
    expiresAt: new Date(row.heartbeatAt + LOCK_LIFETIME_MS).toISOString(),
    mine: token !== undefined && token === row.token,
  };
}

async function holder(ctx: OperationContext, db: Queryable, id: number | null): Promise<LockInfo['user']> {
  if (id === null) return null;
  const users = ctx.cms.config.collectionsBySlug.get('users')!;
  const [row] = await selectRowsByIds(db, users, [id], null);
  if (!row) return null;
  const doc = rowToDoc(users, row);
  return { id, email: String(doc.email), name: typeof doc.name === 'string' && doc.name ? doc.name : null };
}

const newToken = () => randomBytes(18).toString('base64url');
