/**
 * Images a Markdown file names: a path relative to the file, or a root path (`/img/a.png`) read from --public. Either
 * must lead to a regular file inside --root (by default the folder imported): `..` past it, a symbolic link, or a
 * root path without --public is refused, and the image is listed missing. URLs are not fetched.
 */
import path from 'node:path';
import { outsideFileProblem } from '../content-files/folder-files.ts';
import type { MediaFile } from './media-import.ts';

export type MarkdownMediaOptions = { root: string; publicDir?: string };

const isURL = (src: string) => /^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith('//');

/** The file an image reference names, relative to --root, or null when it is a URL (not a file of the folder). */
export function imageFileOf(src: string, fileDir: string, options: MarkdownMediaOptions): string | null {
  if (isURL(src)) return null;
  let clean = src.split(/[?#]/)[0]!;
  try {
    clean = decodeURI(clean);
  } catch {}
  const absolute = clean.startsWith('/')
    ? path.join(options.publicDir ?? path.join(options.root, '\0no-public'), clean)
    : path.resolve(fileDir, clean);
  return path.relative(options.root, absolute);
}

export function markdownMediaLoader(options: MarkdownMediaOptions) {
  return (relative: string) => async (): Promise<MediaFile | null> => {
    if (relative.includes('\0') || (await outsideFileProblem(options.root, relative))) return null;
    const file = path.join(options.root, relative);
    return { data: new Uint8Array(await Bun.file(file).arrayBuffer()), name: path.basename(file) };
  };
}
