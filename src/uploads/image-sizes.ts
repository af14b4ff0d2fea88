/**
 * Image dimensions and resized copies (SPEC "media": `width`, `height`, `sizes`), made with sharp when it
 * loads (src/uploads/sharp-loader.ts). An image over the pixel limit is refused before anything decodes
 * it, so a small file that unpacks to gigabytes of pixels (a decompression bomb) costs nothing.
 */
import type { ImageSize } from '../config/types.ts';
import { badRequest } from '../errors.ts';
import { removeQuietly, stagingPath } from './staging.ts';

import type { Sharp } from './sharp-loader.ts';

/** sharp's own default limit (0x3FFF × 0x3FFF), stated here so the check and the decoder agree. */
export const MAX_IMAGE_PIXELS = 268_402_689;

/** Formats sizes are written in: the original's own. Other images get dimensions but no sizes. */
const OUTPUT_FORMATS: Record<string, 'jpeg' | 'png' | 'webp' | 'avif' | 'gif' | 'tiff'> = {
  'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp', 'image/avif': 'avif', 'image/gif': 'gif', 'image/tiff': 'tiff',
};

export type Dimensions = { width: number; height: number };
export type MadeSize = { name: string; path: string; width: number; height: number; filesize: number };

const inputOptions = { limitInputPixels: MAX_IMAGE_PIXELS, sequentialRead: true, autoOrient: true, failOn: 'error' as const };

/** Width and height as displayed (EXIF orientation applied), or null for files sharp does not read. */
export async function readDimensions(sharp: Sharp, file: string, mimeType: string): Promise<Dimensions | null> {
  if (!mimeType.startsWith('image/')) return null;
  let width: number | undefined;
  let height: number | undefined;
  try {
    const metadata = await sharp(file, { limitInputPixels: false }).metadata();
    width = metadata.autoOrient?.width ?? metadata.width;
    height = metadata.autoOrient?.height ?? metadata.height;
  } catch (error) {
    if (OUTPUT_FORMATS[mimeType]) throw badRequest(`The image could not be read: ${firstLine(error)}`, 'file');
    return null;
  }
  if (!width || !height) return null;
  if (width * height > MAX_IMAGE_PIXELS) {
    throw badRequest(`The image is ${width}×${height} pixels, more than the limit of ${MAX_IMAGE_PIXELS} pixels.`, 'file');
  }
  return { width, height };
}

/**
 * Writes each configured size to a staged file: `width` wide keeping the aspect ratio when `height` is
 * absent, else cropped to `width`×`height`; never enlarged. Nothing is left behind when one fails.
 */
export async function makeImageSizes(sharp: Sharp, file: string, mimeType: string, sizes: ImageSize[], stagingDir: string): Promise<MadeSize[]> {
  const format = OUTPUT_FORMATS[mimeType];
  if (!format || sizes.length === 0) return [];
  const made = await Promise.allSettled(sizes.map(async (size): Promise<MadeSize> => {
    const target = stagingPath(stagingDir, `-${size.name}`);
    try {
      const info = await sharp(file, inputOptions)
        .resize({ width: size.width, height: size.height, fit: size.height ? 'cover' : 'inside', withoutEnlargement: true })
        .toFormat(format)
        .toFile(target);
      return { name: size.name, path: target, width: info.width, height: info.height, filesize: info.size };
    } catch (error) {
      await removeQuietly(target);
      throw error;
    }
  }));
  const failed = made.find((m) => m.status === 'rejected');
  if (failed) {
    await Promise.all(made.map((m) => (m.status === 'fulfilled' ? removeQuietly(m.value.path) : undefined)));
    throw badRequest(`The image could not be resized: ${firstLine((failed as PromiseRejectedResult).reason)}`, 'file');
  }
  return made.map((m) => (m as PromiseFulfilledResult<MadeSize>).value);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}
