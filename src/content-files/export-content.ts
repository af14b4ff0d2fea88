/**
 * `cms export`: every content document as it is read (depth 0, so relationships are ids; `locale=all` by
 * default, so localized fields keep every locale), through the Local API with the operation layer's own
 * paging, and the stored files the media documents name. Drafts are left out unless asked for: without
 * `drafts`, documents of drafts collections and globals are exported only when published, with their live
 * content; with it, every document, with its pending draft's content where there is one.
 * Re-exporting into the same folder removes files of documents that are gone, so the folder can live in git.
 */
import { isUploadCollection } from '../config/upload-collections.ts';
import fs from 'node:fs';
import path from 'node:path';
import type { CMS } from '../cms.ts';
import type { Where } from '../config/types.ts';
import { localAPI } from '../local.ts';
import {
  canonicalJSON,
  contentCollections,
  documentFile,
  globalFile,
  GLOBALS_DIR,
  MANIFEST_FILE,
  MEDIA_DIR,
  type ExportManifest,
} from './layout.ts';
import { MAX_LIMIT } from '../query/page-info.ts';
import { mediaFileKeys } from '../uploads/media-files.ts';

export type ExportProgress = { phase: string; done: number; total: number };
export type ExportOptions = {
  outDir: string;
  locale?: string;
  drafts?: boolean;
  onProgress?: (p: ExportProgress) => void;
};
export type ExportResult = {
  documents: Record<string, number>;
  globals: number;
  mediaFiles: number;
  mediaBytes: number;
};

export async function exportContent(cms: CMS, options: ExportOptions): Promise<ExportResult> {
  const api = localAPI(cms);
  const outDir = path.resolve(options.outDir);
  const locale = options.locale ?? 'all';
  const drafts = options.drafts ?? false;
  const progress = options.onProgress ?? (() => {});
  const written = new Set<string>();
  const write = async (file: string, text: string) => {
    written.add(file);
    // Unchanged files are left alone, so a re-export touches only what changed.
    if (
      await Bun.file(file)
        .text()
        .then(
          (old) => old === text,
          () => false,
        )
    )
      return;
    await Bun.write(file, text);
  };
  const result: ExportResult = { documents: {}, globals: 0, mediaFiles: 0, mediaBytes: 0 };
  const mediaNames: string[] = [];

  await fs.promises.mkdir(outDir, { recursive: true });
  for (const collection of contentCollections(cms.config)) {
    const where: Where | undefined = collection.drafts && !drafts ? { status: { equals: 'published' } } : undefined;
    // Join values are read from the documents that point here: they are never part of a file.
    const read = {
      collection: collection.slug,
      where,
      draft: drafts,
      depth: 0,
      locale,
      sort: 'id',
      limit: MAX_LIMIT,
      joins: false as const,
    };
    let page = await api.find({ ...read, page: 1 });
    progress({ phase: collection.slug, done: 0, total: page.totalDocs });
    await fs.promises.mkdir(path.join(outDir, collection.slug), { recursive: true });
    let done = 0;
    for (;;) {
      for (const doc of page.docs) {
        await write(documentFile(outDir, collection.slug, doc.id as number), canonicalJSON(doc));
        if (isUploadCollection(collection)) mediaNames.push(...mediaFileKeys(doc));
      }
      done += page.docs.length;
      progress({ phase: collection.slug, done, total: page.totalDocs });
      if (!page.hasNextPage) break;
      page = await api.find({ ...read, page: page.page + 1 });
    }
    result.documents[collection.slug] = done;
  }

  await fs.promises.mkdir(path.join(outDir, GLOBALS_DIR), { recursive: true });
  for (const global of cms.config.globals) {
    const doc = await api.findGlobal({ slug: global.slug, draft: drafts, depth: 0, locale });
    // A global never saved has no row: it reads as its defaults, which are the config's, not content.
    if (!doc.updatedAt || (global.drafts && !drafts && doc.status !== 'published')) continue;
    await write(globalFile(outDir, global.slug), canonicalJSON(doc));
    result.globals++;
  }
  progress({ phase: GLOBALS_DIR, done: result.globals, total: result.globals });

  await fs.promises.mkdir(path.join(outDir, MEDIA_DIR), { recursive: true });
  for (const name of mediaNames) {
    const target = path.join(outDir, MEDIA_DIR, name);
    written.add(target);
    const stored = await cms.storage.get(name);
    if (!stored) throw new Error(`media file "${name}" is named by a media document but missing from storage`);
    const existing = await fs.promises.stat(target).catch(() => null);
    // Stored names are unique per upload and never rewritten, so a file already there of the same size is this one.
    if (existing?.size !== stored.size) await Bun.write(target, new Response(stored.body));
    result.mediaFiles++;
    result.mediaBytes += stored.size;
    progress({ phase: MEDIA_DIR, done: result.mediaFiles, total: mediaNames.length });
  }

  const manifest: ExportManifest = { format: 1, locale, drafts };
  await write(path.join(outDir, MANIFEST_FILE), canonicalJSON(manifest));
  await removeStale(
    outDir,
    [...new Set([...contentCollections(cms.config).map((c) => c.slug), GLOBALS_DIR, MEDIA_DIR])],
    written,
  );
  return result;
}

/** Files of an earlier export in the folders this export owns that this export did not write (deleted documents). */
async function removeStale(outDir: string, folders: string[], written: Set<string>): Promise<void> {
  for (const folder of folders) {
    for (const entry of await fs.promises.readdir(path.join(outDir, folder), { withFileTypes: true })) {
      const file = path.join(outDir, folder, entry.name);
      if (entry.isFile() && !written.has(file)) await fs.promises.rm(file, { force: true });
    }
  }
}
