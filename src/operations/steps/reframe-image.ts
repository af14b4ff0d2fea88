/**
 * A media document's focal point or crop changed (docs/media.md): its image sizes are made again from the
 * stored original, under new file names (stored files are served as immutable), before the update
 * commits. `commit` removes the old size files once it has; `discard` removes the new ones if it failed.
 */
import type { ImageSize } from '../../config/types.ts';
import fs from 'node:fs';
import type { CMS } from '../../cms.ts';
import { loadSharp } from '../../uploads/sharp-loader.ts';
import { frameOf, makeImageSizes } from '../../uploads/image-sizes.ts';
import { randomSizeVersion, sizeFileName } from '../../uploads/file-names.ts';
import { removeQuietly, stagingDirOf, stagingPath } from '../../uploads/staging.ts';
import { removeStoredFiles } from '../../uploads/media-files.ts';

type Doc = Record<string, unknown>;
type SizeEntry = { filename: string };
export type Reframed = { sizes: Doc; commit(): Promise<void>; discard(): Promise<void> };

const FRAME_FIELDS = ['focalX', 'focalY', 'crop'] as const;

/** Null when nothing that frames the image changed, or it has no sizes to make. */
export async function reframeIfChanged(
  cms: CMS,
  existing: Doc,
  next: Doc,
  imageSizes: ImageSize[],
): Promise<Reframed | null> {
  if (FRAME_FIELDS.every((f) => JSON.stringify(existing[f] ?? null) === JSON.stringify(next[f] ?? null))) return null;
  const frame = frameOf(next);
  const filename = existing.filename as string;
  if (!imageSizes.length || typeof filename !== 'string' || !existing.width || !existing.height) return null;
  const sharp = await loadSharp();
  const stored = sharp && (await cms.storage.get(filename));
  if (!sharp || !stored) return null;
  const stagingDir = stagingDirOf(cms.storage, cms.config.dataDir);
  await fs.promises.mkdir(stagingDir, { recursive: true });
  const original = stagingPath(stagingDir, '-original');
  const newKeys: string[] = [];
  try {
    if (stored.body instanceof Blob) await Bun.write(original, stored.body);
    else await Bun.write(original, new Response(stored.body));
    const mimeType = existing.mimeType as string;
    const made = await makeImageSizes(
      sharp,
      original,
      mimeType,
      imageSizes,
      stagingDir,
      { width: existing.width as number, height: existing.height as number },
      frame,
    );
    const version = randomSizeVersion();
    const sizes: Doc = {};
    try {
      for (const size of made) {
        const key = sizeFileName(filename, size.name, version);
        await cms.storage.put(key, Bun.file(size.path), { contentType: mimeType, size: size.filesize });
        newKeys.push(key);
        sizes[size.name] = { filename: key, width: size.width, height: size.height, filesize: size.filesize, mimeType };
      }
    } finally {
      await Promise.all(made.map((m) => removeQuietly(m.path)));
    }
    const oldKeys = Object.values((existing.sizes ?? {}) as Record<string, SizeEntry>)
      .map((s) => s?.filename)
      .filter((k): k is string => typeof k === 'string');
    return {
      sizes,
      commit: () =>
        removeStoredFiles(
          cms,
          oldKeys.filter((k) => !newKeys.includes(k)),
          `media document ${existing.id} was reframed`,
        ),
      discard: () => removeStoredFiles(cms, newKeys, 'a reframe failed'),
    };
  } catch (error) {
    await removeStoredFiles(cms, newKeys, 'a reframe failed');
    throw error;
  } finally {
    await removeQuietly(original);
  }
}
