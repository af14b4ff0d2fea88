/**
 * A version row → the version record of docs/drafts-and-versions.md `{ id, parent, version, status, createdAt, updatedAt, latest }`;
 * `version` is presented like a read. `author` (src/operations/steps/version-authors.ts) is added only when asked
 * (`?author=true`, the admin's version list), so the contract's record keeps exactly its shape.
 */
import type { Entity } from '../../config/types.ts';
import type { VersionRow } from '../../versions/store.ts';
import { presentDocs } from './present.ts';
import type { OperationContext } from '../../operation-context.ts';
import { presentAuthors } from './version-authors.ts';

export async function presentVersions(
  ctx: OperationContext,
  entity: Entity,
  rows: VersionRow[],
  depth: number,
  withAuthor = false,
): Promise<Record<string, unknown>[]> {
  const docs = await presentDocs(
    ctx,
    entity,
    rows.map((row) => JSON.parse(row.version) as Record<string, unknown>),
    depth,
    undefined,
    false,
  );
  const authors = withAuthor
    ? await presentAuthors(
        ctx,
        rows.map((row) => row.author ?? null),
      )
    : [];
  return rows.map((row, i) => ({
    id: row.id,
    // A global has no document id.
    parent: entity.kind === 'global' ? null : row.parent,
    version: docs[i],
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    latest: row.latest === 1,
    // Only autosaved versions say so, so every other record keeps the documented shape.
    ...(row.autosave === 1 ? { autosave: true } : {}),
    ...(withAuthor ? { author: authors[i] } : {}),
  }));
}
