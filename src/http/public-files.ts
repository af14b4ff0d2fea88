/**
 * A folder of the project's own static files served at the root (`publicDir`, like PocketBase's
 * pb_public): a site beside the admin, on the same host, so live preview needs no CORS and the editor's
 * cookie goes along. Read from disk on every request, so edits show at once. A path without a file and
 * without an extension answers the folder's index.html, for a site that routes in the browser.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { etagOf, plain, respond } from './static-file.ts';

/** The answer for a GET or HEAD of `pathname`, or null when the folder has nothing for it. */
export function servePublicFile(dir: string, pathname: string, request: Request): Response | null {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return plain(400, 'Bad Request');
  }
  // Nothing outside the folder, and nothing hidden in it (.env, .git).
  const segments = path.split('/');
  if (path.includes('\0') || path.includes('\\') || segments.some((s) => s === '..' || s.startsWith('.'))) return null;
  const root = resolve(dir);
  const wanted = resolve(root, `.${path}`);
  if (wanted !== root && !wanted.startsWith(root + sep)) return null;
  const file = isFile(wanted) ? wanted : isFile(join(wanted, 'index.html')) ? join(wanted, 'index.html') : null;
  if (file) return answer(request, file);
  const last = segments[segments.length - 1] ?? '';
  const index = join(root, 'index.html');
  if (!/\.[a-z0-9]{1,8}$/i.test(last) && existsSync(index)) return answer(request, index);
  return null;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function answer(request: Request, file: string): Response {
  const body = new Uint8Array(readFileSync(file));
  return respond(request, file, { body, etag: etagOf(body) }, false);
}

const under = (path: string, prefix: string) => prefix !== '' && (path === prefix || path.startsWith(`${prefix}/`));

/** For the app's first hook: the public folder's answer to a GET or HEAD outside the API and the admin, else undefined. */
export function publicFiles(dir: string | null | undefined, routes: { api: string; admin: string }) {
  if (!dir || !routes.admin) return () => undefined;
  return (request: Request): Response | undefined => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const path = new URL(request.url).pathname;
    if (under(path, routes.api) || under(path, routes.admin)) return undefined;
    return servePublicFile(dir, path, request) ?? undefined;
  };
}
