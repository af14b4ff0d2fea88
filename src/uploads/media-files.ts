/**
 * Which stored files belong to documents of an upload collection (media or another): the file route
 * serves only names found here, and deleting such a document removes every file it lists.
 */
import type { CMS } from '../cms.ts';
import type { SanitizedCollection } from '../config/types.ts';
import { quote } from '../query/where.ts';
import { STORED_NAME, splitSizeFileName } from './file-names.ts';

type Doc = Record<string, unknown>;
type SizeEntry = { filename?: unknown; mimeType?: unknown };

/** The storage key and type of a stored file name, or null when no document of `media` (an upload collection; outside the trash) has that exact name. */
export async function findStoredFile(
  cms: CMS,
  media: SanitizedCollection,
  name: string,
): Promise<{ key: string; mimeType: string } | null> {
  if (!STORED_NAME.test(name)) return null;
  const byFilename = (filename: string) =>
    cms.store.get<{ mimeType: string | null; sizes: unknown }>(
      `SELECT "mimeType", "sizes" FROM ${quote(media.table)} WHERE "filename" = ?${media.trash ? ' AND "deletedAt" IS NULL' : ''}`,
      [filename],
    );
  const original = await byFilename(name);
  if (original) return { key: name, mimeType: original.mimeType ?? 'application/octet-stream' };
  const size = splitSizeFileName(name);
  for (const filename of size?.filenames ?? []) {
    const parent = await byFilename(filename);
    if (!parent?.sizes) continue;
    const entry = (cms.store.dialect.decodeJSON(parent.sizes) as Record<string, SizeEntry>)[size!.sizeName];
    if (entry?.filename === name)
      return {
        key: name,
        mimeType: typeof entry.mimeType === 'string' ? entry.mimeType : (parent.mimeType ?? 'application/octet-stream'),
      };
  }
  return null;
}

/** Every stored file of a media document: the original and its sizes. */
export function mediaFileKeys(doc: Doc): string[] {
  const keys: string[] = [];
  if (typeof doc.filename === 'string' && doc.filename) keys.push(doc.filename);
  if (doc.sizes && typeof doc.sizes === 'object') {
    for (const size of Object.values(doc.sizes as Record<string, SizeEntry>)) {
      if (size && typeof size.filename === 'string') keys.push(size.filename);
    }
  }
  return keys;
}

/** Removes stored files, never throwing: what cannot be removed is logged as left over. */
export async function removeStoredFiles(cms: CMS, keys: string[], reason: string): Promise<void> {
  await Promise.all(
    keys.map(async (key) => {
      try {
        await cms.storage.delete(key);
      } catch (error) {
        cms.log.warn(
          `media: ${reason}: could not remove stored file "${key}", it is left over: ${error instanceof Error ? error.message : error}`,
        );
      }
    }),
  );
}

/** Called once a media document is deleted (src/operations/delete.ts): its files go too. */
export async function deleteMediaFiles(cms: CMS, doc: Doc): Promise<void> {
  await removeStoredFiles(cms, mediaFileKeys(doc), `media document ${doc.id} was deleted`);
}
