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

/** The media document for a reference (a URL or path as the source wrote it), importing its file once. */
export async function importMedia(
  run: ImportRun,
  ref: string,
  load: () => Promise<MediaFile | null>,
  alt = '',
): Promise<string | null> {
  if (run.mediaRefs.has(ref)) return run.mediaRefs.get(ref)!;
  const id = await importOnce(run, ref, load, alt);
  run.mediaRefs.set(ref, id);
  return id;
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
  if (known) {
    run.report.media.reused++;
    return known.docId;
  }
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
