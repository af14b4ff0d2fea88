/**
 * Where a WordPress media URL's bytes come from: a copy of `wp-content/uploads` given with --uploads (the part of
 * the path after `/wp-content/uploads/`, or the whole path on hosts that serve uploads at their root, such as
 * WordPress.com's file hosts), else, only with --fetch-media, the URL itself. Files are read only when they really
 * lie inside the uploads folder: `..`, absolute names and symbolic links are refused.
 */
import path from 'node:path';
import { outsideFileProblem } from '../content-files/folder-files.ts';
import type { MediaFile } from './media-import.ts';

export type WordPressMediaOptions = { uploads?: string; fetchMedia: boolean; siteURL: string };

const UPLOADS_PART = '/wp-content/uploads/';
const FETCH_TIMEOUT_MS = 30_000;

/** `…/wp-content/uploads/2024/05/a.jpg` and `https://x.files.wordpress.com/2024/05/a.jpg` → `2024/05/a.jpg`. */
export function uploadsPathOf(url: string, siteURL: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, siteURL || 'http://localhost/').pathname);
  } catch {
    return null;
  }
  const at = pathname.indexOf(UPLOADS_PART);
  const relative = at >= 0 ? pathname.slice(at + UPLOADS_PART.length) : pathname.replace(/^\/+/, '');
  return relative || null;
}

export function wordpressMediaLoader(options: WordPressMediaOptions) {
  return (url: string) => async (): Promise<MediaFile | null> => {
    const relative = uploadsPathOf(url, options.siteURL);
    if (options.uploads && relative) {
      const problem = await outsideFileProblem(options.uploads, relative);
      if (!problem) {
        const file = path.join(options.uploads, relative);
        return { data: new Uint8Array(await Bun.file(file).arrayBuffer()), name: path.basename(file) };
      }
    }
    if (!options.fetchMedia || !/^https?:\/\//i.test(url)) return null;
    const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!response.ok) return null;
    const name = path.basename(new URL(response.url || url).pathname) || 'file';
    return { data: new Uint8Array(await response.arrayBuffer()), name: decodeURIComponent(name) };
  };
}
