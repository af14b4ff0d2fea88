/** Emptying the trash of what has been there longer than its collection keeps it (docs/trash.md). */
import type { CMS } from '../cms.ts';
import { selectRows } from '../db/documents.ts';
import { compileWhere, TRUSTED } from '../query/where.ts';
import { createContext } from '../operation-context.ts';
import { deleteDocument } from './delete.ts';

/**
 * Removes, for good, trashed documents older than their collection's `keepDays` (the job runner calls
 * this on each run). Each goes through the ordinary final delete, so its versions and files go too.
 */
export async function emptyExpiredTrash(cms: CMS): Promise<number> {
  let removed = 0;
  const now = cms.clock.now();
  for (const collection of cms.config.collections) {
    const days = collection.trash?.keepDays;
    if (!days) continue;
    const before = new Date(now - days * 86_400_000).toISOString();
    const where = compileWhere(cms.store.dialect, collection, { deletedAt: { less_than: before } }, null, TRUSTED);
    const rows = await selectRows(cms.store, collection, where, '"id" ASC', null, 0);
    const ctx = createContext(cms, { overrideAccess: true });
    for (const row of rows) {
      try {
        await deleteDocument(ctx, { collection: collection.slug, id: row.id as number, trash: true });
        removed++;
      } catch (error) {
        cms.log.error(`trash: could not empty ${collection.slug} ${row.id}:`, error);
      }
    }
  }
  return removed;
}
