/** `folders: true` on a collection: its documents get a `folder` relationship to the built-in folders (docs/media.md, "Folders"). */
import { folderField, FOLDER_FIELD, FOLDERS_SLUG } from './builtin-collections.ts';
import type { Fail } from './sanitize-fields.ts';
import type { CollectionConfig } from './types.ts';

export function withFolders(c: CollectionConfig, key: string, fail: Fail): CollectionConfig {
  if (c.folders === undefined || c.folders === false) return c;
  if (c.folders !== true) fail(`${key}.folders`, 'must be true or false');
  if (c.slug === FOLDERS_SLUG) fail(`${key}.folders`, 'folders are not kept in folders');
  if ((c.fields ?? []).some((f) => f?.name === FOLDER_FIELD))
    fail(`${key}.folders`, `the collection already has a field "${FOLDER_FIELD}"`);
  return { ...c, fields: [...(c.fields ?? []), folderField()] };
}
