/**
 * Image dimensions and resized copies (`width`, `height`, `sizes`: docs/media.md), made with sharp when it
 * loads (src/uploads/sharp-loader.ts). An image over the pixel limit is refused before anything decodes
 * it, so a small file that unpacks to gigabytes of pixels (a decompression bomb) costs nothing.
 */
import type { ImageSize } from '../config/types.ts';
import { badRequest, insufficientStorage } from '../errors.ts';
import { faultKind } from '../faults.ts';
import { removeQuietly, stagingPath } from './staging.ts';

import type { Sharp } from './sharp-loader.ts';

/** sharp's own default limit (0x3FFF × 0x3FFF), stated here so the check and the decoder agree. */
export const MAX_IMAGE_PIXELS = 268_402_689;

/** Formats sizes are written in: the original's own. Other images get dimensions but no sizes. */
const OUTPUT_FORMATS: Record<string, 'jpeg' | 'png' | 'webp' | 'avif' | 'gif' | 'tiff'> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
  'image/tiff': 'tiff',
};

export type Dimensions = { width: number; height: number };
/**
 * Where the sizes look (docs/media.md): the focal point in percent of the original (Payload's `focalX`,
 * `focalY`, 50/50 when unset) and an optional crop `{ x, y, width, height }` in percent of the original.
 */
export type Frame = {
  focalX?: number | null;
  focalY?: number | null;
  crop?: { x: number; y: number; width: number; height: number } | null;
};
type Region = { left: number; top: number; width: number; height: number };

const clamp = (n: number, lo: number, hi: number) => Math.min(Math.max(n, lo), hi);

/**
 * The part of the original a size shows: the crop (whole image without one), then, for a size with both
 * width and height, the largest piece of the size's aspect ratio inside it, centred on the focal point as
 * far as the crop's edges allow. Computed here rather than left to sharp's `position`, which knows no
 * focal point.
 */
export function sizeRegion(original: Dimensions, frame: Frame, size: ImageSize): Region {
  const { width: W, height: H } = original;
  const c = frame.crop;
  let left = c ? clamp(Math.round((c.x / 100) * W), 0, W - 1) : 0;
  let top = c ? clamp(Math.round((c.y / 100) * H), 0, H - 1) : 0;
  const cw = c ? clamp(Math.round((c.width / 100) * W), 1, W - left) : W;
  const ch = c ? clamp(Math.round((c.height / 100) * H), 1, H - top) : H;
  if (!size.height) return { left, top, width: cw, height: ch };
  const aspect = size.width / size.height;
  const width = cw / ch > aspect ? Math.max(1, Math.round(ch * aspect)) : cw;
  const height = cw / ch > aspect ? ch : Math.max(1, Math.round(cw / aspect));
  const fx = ((frame.focalX ?? 50) / 100) * W - left;
  const fy = ((frame.focalY ?? 50) / 100) * H - top;
  left += clamp(Math.round(fx - width / 2), 0, cw - width);
  top += clamp(Math.round(fy - height / 2), 0, ch - height);
  return { left, top, width, height };
}
export type MadeSize = { name: string; path: string; width: number; height: number; filesize: number };

const inputOptions = {
  limitInputPixels: MAX_IMAGE_PIXELS,
  sequentialRead: true,
  autoOrient: true,
  failOn: 'error' as const,
};

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
    throw badRequest(
      `The image is ${width}×${height} pixels, more than the limit of ${MAX_IMAGE_PIXELS} pixels.`,
      'file',
    );
  }
  return { width, height };
}

/**
 * Writes each configured size to a staged file: `width` wide keeping the aspect ratio when `height` is
 * absent, else cropped to `width`×`height` around the focal point; inside the crop when there is one;
 * never enlarged. Nothing is left behind when one fails.
 */
export async function makeImageSizes(
  sharp: Sharp,
  file: string,
  mimeType: string,
  sizes: ImageSize[],
  stagingDir: string,
  original?: Dimensions,
  frame: Frame = {},
): Promise<MadeSize[]> {
  const format = OUTPUT_FORMATS[mimeType];
  if (!format || sizes.length === 0) return [];
  const made = await Promise.allSettled(
    sizes.map(async (size): Promise<MadeSize> => {
      const target = stagingPath(stagingDir, `-${size.name}`);
      try {
        const framed = original && (frame.crop || size.height);
        const info = await (framed
          ? sharp(file, inputOptions).extract(sizeRegion(original, frame, size))
          : sharp(file, inputOptions)
        )
          .resize({
            width: size.width,
            height: size.height,
            fit: size.height ? 'cover' : 'inside',
            withoutEnlargement: true,
          })
          .toFormat(format)
          .toFile(target);
        return { name: size.name, path: target, width: info.width, height: info.height, filesize: info.size };
      } catch (error) {
        await removeQuietly(target);
        throw error;
      }
    }),
  );
  const failed = made.find((m) => m.status === 'rejected');
  if (failed) {
    await Promise.all(made.map((m) => (m.status === 'fulfilled' ? removeQuietly(m.value.path) : undefined)));
    const reason = (failed as PromiseRejectedResult).reason;
    if (isDiskFull(reason)) throw insufficientStorage();
    throw badRequest(`The image could not be resized: ${firstLine(reason)}`, 'file');
  }
  return made.map((m) => (m as PromiseFulfilledResult<MadeSize>).value);
}

/** libvips reports a write that found no room in its message only ("system error: No space left on device"). */
function isDiskFull(error: unknown): boolean {
  if (faultKind(error) === 'disk full') return true;
  return /No space left on device|Disk quota exceeded/.test(error instanceof Error ? error.message : String(error));
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

/** `crop` is `{ x, y, width, height }` in percent of the original, inside it, or null. */
export function frameOf(doc: Record<string, unknown>): Frame {
  const crop = doc.crop;
  if (crop === null || crop === undefined)
    return { focalX: doc.focalX as number, focalY: doc.focalY as number, crop: null };
  const c = crop as Record<string, unknown>;
  const parts = ['x', 'y', 'width', 'height'].map((k) => c[k]);
  const valid =
    typeof crop === 'object' &&
    parts.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 100) &&
    (c.width as number) > 0 &&
    (c.height as number) > 0 &&
    (c.x as number) + (c.width as number) <= 100.0001 &&
    (c.y as number) + (c.height as number) <= 100.0001;
  if (!valid) throw badRequest('crop must be { x, y, width, height } in percent of the image, inside it.', 'crop');
  return {
    focalX: doc.focalX as number,
    focalY: doc.focalY as number,
    crop: { x: c.x as number, y: c.y as number, width: c.width as number, height: c.height as number },
  };
}
