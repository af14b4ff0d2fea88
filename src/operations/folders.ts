/**
 * The rules of nested folders (docs/media.md, "Folders"): a folder never sits inside itself or one of its
 * own sub-folders, and a folder is deleted only once nothing is in it. That the parent exists is checked
 * like any relationship (prepare-write.ts).
 */
import { countRows, selectRowById } from '../db/documents.ts';
import { quote } from '../query/where.ts';
import { APIError, badRequest } from '../errors.ts';
import { FOLDER_FIELD } from '../config/builtin-collections.ts';
import type { SanitizedCollection } from '../config/types.ts';
import type { OperationContext } from '../operation-context.ts';

/** Deeper than any real tree; a longer chain means the stored data already loops, and the move is refused. */
const MAX_DEPTH = 256;

/** Refuses putting folder `id` into `parent` when `parent` is `id` or lies below it. */
export async function assertFolderPlacement(
  ctx: OperationContext,
  folders: SanitizedCollection,
  id: number,
  parent: unknown,
): Promise<void> {
  let at = typeof parent === 'number' ? parent : null;
  for (let depth = 0; at !== null; depth++) {
    if (at === id || depth > MAX_DEPTH)
      throw badRequest('A folder cannot be moved into itself or into one of its own sub-folders.', FOLDER_FIELD);
    const row = await selectRowById(ctx.cms.store, folders, at);
    at =
      typeof row?.[FOLDER_FIELD] === 'number'
        ? (row[FOLDER_FIELD] as number)
        : row?.[FOLDER_FIELD] == null
          ? null
          : Number(row[FOLDER_FIELD]);
  }
}

/** Refuses deleting a folder that still holds sub-folders or documents (trashed ones too: a restore would find no folder). */
export async function assertFolderEmpty(ctx: OperationContext, id: number): Promise<void> {
  const holders = ctx.cms.config.collections.filter((c) => c.folders || c.builtIn === 'folders');
  for (const c of holders) {
    const n = await countRows(ctx.cms.store, c, { sql: `${quote(FOLDER_FIELD)} = ?`, params: [id] });
    if (n > 0)
      throw new APIError(
        409,
        'The folder is not empty: move or delete what is in it first (documents in the trash count too).',
      );
  }
}
