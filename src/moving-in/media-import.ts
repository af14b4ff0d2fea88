/**
 * Media for an import: each distinct file (by the sha256 of its bytes) becomes one media document, uploaded
 * through the same operation as `POST /media` (file type checks, image sizes). A reference whose file cannot be
 * had, or whose type the media collection refuses, is listed in the report's `missingMedia`, never invented.
 */
import { createHash } from 'node:crypto';
import * as operations from '../operations/index.ts';
import { stageLocalFile } from '../uploads/staging.ts';
import { MEDIA_SLUG } from '../config/builtin-collections.ts';
import { saveMapping } from './import-map.ts';
import { MEDIA_SOURCE, PLANNED, type ImportRun } from './import-run.ts';
import { addMissingMedia } from './report.ts';

export type MediaFile = { data: Uint8Array; name: string };

/** How many files are imported at once: image sizes are made off the main thread, and the writes share commits. */
export const MEDIA_AT_ONCE = 4;

/**
 * The media document for a reference (a URL or path as the source wrote it), importing its file once. Safe to
 * call for several references at once: the same reference, or the same bytes, still make one document.
 */
export function importMedia(
  run: ImportRun,
  ref: string,
  load: () => Promise<MediaFile | null>,
  alt = '',
): Promise<string | null> {
  let id = run.mediaRefs.get(ref);
  if (!id) run.mediaRefs.set(ref, (id = importOnce(run, ref, load, alt)));
  return id;
}

/** Runs `work` for every item, at most `limit` at a time, and waits for them all. */
export async function forEachAtOnce<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function importOnce(
  run: ImportRun,
  ref: string,
  load: () => Promise<MediaFile | null>,
  alt: string,
): Promise<string | null> {
  const file = await load().catch(() => null);
  if (!file) {
    addMissingMedia(run.report, ref);
    return null;
  }
  const hash = createHash('sha256').update(file.data).digest('hex');
  const known = run.media.get(hash);
  const pending = run.mediaInFlight.get(hash);
  if (known || pending) {
    run.report.media.reused++;
    return known ? known.docId : pending!;
  }
  const id = uploadOnce(run, ref, file, hash, alt);
  run.mediaInFlight.set(hash, id);
  try {
    return await id;
  } finally {
    run.mediaInFlight.delete(hash);
  }
}

async function uploadOnce(
  run: ImportRun,
  ref: string,
  file: MediaFile,
  hash: string,
  alt: string,
): Promise<string | null> {
  if (run.dryRun) {
    // Whether the media collection takes the file is only known by trying; a dry run counts it as imported.
    run.report.media.imported++;
    run.media.set(hash, { collection: MEDIA_SLUG, docId: PLANNED, hash });
    return PLANNED;
  }
  try {
    const doc = await operations.upload(run.ctx, {
      receive: async (limits) => ({
        file: await stageLocalFile({ data: file.data, name: file.name }, limits),
        data: alt ? { alt } : {},
      }),
      depth: 0,
    });
    const mapped = { collection: MEDIA_SLUG, docId: String(doc.id), hash };
    await saveMapping(run.cms.store, MEDIA_SOURCE, hash, mapped);
    run.media.set(hash, mapped);
    run.report.media.imported++;
    return mapped.docId;
  } catch {
    addMissingMedia(run.report, ref);
    return null;
  }
}
