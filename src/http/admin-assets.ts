/**
 * Serves the prebuilt admin under the server's admin prefix, which passes the rest of the path:
 * `serveAdminAsset('/assets/main-AB12CD34.js', request)`. Where the files are: admin-files.ts; the
 * page with its runtime config: admin-index.ts; the answer for a file: static-file.ts.
 */
import { currentFiles, forgetFiles, loadFile } from './admin-files.ts';
import { loadIndex } from './admin-index.ts';
import { plain, respond } from './static-file.ts';

export { adminAssetsSource } from './admin-files.ts';
export { setAdminRuntimeConfig, type AdminRuntimeConfig } from './admin-index.ts';

/**
 * Answers a request for `pathname` (relative to the admin mount: `/`,
 * `/assets/main-AB12CD34.js`, `/collections/posts`), or null when no admin
 * was built. Unknown paths without a file extension get index.html (the admin
 * routes on the client); unknown files get a 404.
 */
export function serveAdminAsset(pathname: string, request: Request): Response | null {
  const f = currentFiles();
  const indexFile = f?.get('/index.html');
  if (!f || !indexFile) return null;

  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return plain(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
  }

  let path: string;
  try {
    path = decodeURIComponent(pathname || '/');
  } catch {
    return plain(400, 'Bad Request');
  }
  const q = path.search(/[?#]/);
  if (q >= 0) path = path.slice(0, q);
  if (!path.startsWith('/')) path = `/${path}`;
  // Nothing outside admin/dist: files are only ever looked up by exact name in
  // the list of files that exist there; dot segments and odd characters are refused outright.
  if (path.includes('\0') || path.includes('\\') || path.split('/').some((s) => s === '..' || s === '.')) {
    return plain(404, 'Not Found');
  }

  try {
    if (path === '/' || path === '/index.html') return respond(request, path, loadIndex(indexFile), true);
    const file = f.get(path);
    if (file) return respond(request, path, loadFile(path, file), false);
    const last = path.slice(path.lastIndexOf('/') + 1);
    if (path.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(last)) return plain(404, 'Not Found');
    return respond(request, '/index.html', loadIndex(indexFile), true);
  } catch (err) {
    // A file vanished between listing and reading (an admin rebuild from source).
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      forgetFiles();
      return plain(404, 'Not Found');
    }
    throw err;
  }
}
