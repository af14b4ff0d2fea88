/**
 * The live row of a drafts collection document or global, addressed the same way for both: a
 * collection document by its id, a global by parent 0 (stored as row 1 of its table, the row
 * src/operations/globals.ts writes, and shown without an id).
 */
import { rowToDoc } from '../fields/row.ts';
import { selectRowById, updateRow } from '../db/documents.ts';
import type { Entity } from '../config/types.ts';
import type { Queryable } from '../db/store.ts';
import type { CommitWatch } from '../db/rows-rewritten.ts';
import type { VersionOwner } from './store.ts';

type Doc = Record<string, unknown>;
const GLOBAL_ROW = 1;

export const rowIdOf = (owner: VersionOwner) => (owner.entity.kind === 'global' ? GLOBAL_ROW : owner.parent);

/** What an event names: `{ collection, id }` or `{ global }`. */
export function eventSubject(owner: VersionOwner): { collection: string; id: number } | { global: string } {
  return owner.entity.kind === 'global'
    ? { global: owner.entity.slug }
    : { collection: owner.entity.slug, id: owner.parent };
}

export async function readLiveDoc(db: Queryable, owner: VersionOwner): Promise<Doc | null> {
  const row = await selectRowById(db, owner.entity, rowIdOf(owner));
  if (!row) return null;
  const doc = rowToDoc(owner.entity, row);
  if (owner.entity.kind === 'global') delete doc.id;
  return doc;
}

/** `watch`: as for updateRow, so that kept counts follow the change. */
export async function writeLiveStatus(
  db: Queryable,
  owner: VersionOwner,
  status: string,
  now: string,
  watch?: CommitWatch,
): Promise<void> {
  await updateRow(db, owner.entity, rowIdOf(owner), { status, updatedAt: now }, watch);
}

export const ownerOf = (entity: Entity, id?: number): VersionOwner => ({
  entity,
  parent: entity.kind === 'global' ? 0 : id!,
});
