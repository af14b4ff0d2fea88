/**
 * The type of an upload comes from its bytes (file-type), never from its name or the client's
 * Content-Type (docs/media.md), and must match `upload.mimeTypes`.
 */
import { APIError } from '../errors.ts';

export type DetectedType = { mimeType: string; extension: string };

export async function sniffUploadType(file: string, allowed: string[]): Promise<DetectedType> {
  // Loaded at the first upload, not at start (a large module graph).
  // fileTypeFromBlob, not fileTypeFromFile: the latter loads strtok3 through a runtime import() that the
  // single-file build cannot follow; a Bun.file blob is read lazily, as far as detection needs.
  const { fileTypeFromBlob } = await import('file-type');
  const detected = await fileTypeFromBlob(Bun.file(file));
  if (!detected)
    throw new APIError(
      415,
      'The file type could not be recognised from its contents; it is not an allowed type.',
      'file',
    );
  if (!mimeTypeAllowed(detected.mime, allowed)) {
    throw new APIError(415, `Files of type ${detected.mime} are not allowed (allowed: ${allowed.join(', ')}).`, 'file');
  }
  return { mimeType: detected.mime, extension: detected.ext };
}

/** `image/*` matches every image type; `*` or `*\/*` anything; otherwise an exact, case-insensitive match. */
export function mimeTypeAllowed(mimeType: string, allowed: string[]): boolean {
  const type = mimeType.toLowerCase();
  return allowed.some((pattern) => {
    const p = pattern.trim().toLowerCase();
    if (p === '*' || p === '*/*') return true;
    if (p.endsWith('/*')) return type.startsWith(p.slice(0, -1));
    return p === type;
  });
}
