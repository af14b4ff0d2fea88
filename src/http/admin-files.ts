/**
 * Where the admin's built files are (admin/dist, made by admin/build.ts):
 *
 * - From source: read from admin/dist on disk (re-scanned when index.html
 *   changes, so `bun admin/build.ts --watch` works without a restart).
 * - Compiled: from the files embedded by src/build/plugins.ts
 *   (src/build/admin-manifest.ts becomes a map of file imports).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { adminManifest } from '../build/admin-manifest.ts';
import { etagOf, type Loaded } from './static-file.ts';

const SOURCE_DIST = resolve(import.meta.dir, '../../admin/dist');

let files: Map<string, string> | null = null; // path below the mount → file to read
let filesKey = ''; // source mode: index.html's mtime+size when `files` was built
let generation = 0; // bumped whenever `files` is built again, so what was made from the old files is made again
const loaded = new Map<string, Loaded>();

/** Where the admin comes from: embedded in the binary, admin/dist on disk, or nowhere. */
export function adminAssetsSource(): 'embedded' | 'disk' | 'none' {
  const f = currentFiles();
  if (!f) return 'none';
  return adminManifest ? 'embedded' : 'disk';
}

/** Changes each time the files are listed again (a rebuild from source). */
export function filesGeneration(): number {
  return generation;
}

/** The admin's files by path below the mount (`/index.html`, `/assets/…`), or null when none was built. */
export function currentFiles(): Map<string, string> | null {
  if (adminManifest) {
    if (!files) {
      files = new Map(Object.entries(adminManifest));
      if (!files.has('/index.html')) files = null;
    }
    return files;
  }
  // From source: admin/dist on disk.
  const indexFile = join(SOURCE_DIST, 'index.html');
  let key = '';
  try {
    const st = statSync(indexFile);
    key = `${st.mtimeMs}:${st.size}`;
  } catch {
    files = null;
    filesKey = '';
    return null;
  }
  if (key !== filesKey) {
    files = new Map(listDist(SOURCE_DIST).map((rel) => [`/${rel}`, join(SOURCE_DIST, rel)]));
    filesKey = key;
    loaded.clear();
    generation++;
  }
  return files;
}

/** A file vanished between listing and reading: list them again on the next request. */
export function forgetFiles(): void {
  filesKey = '';
}

function listDist(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, prefix: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`);
      else if (e.isFile() && !e.name.endsWith('.map')) out.push(prefix + e.name);
    }
  };
  if (existsSync(dir)) walk(dir, '');
  return out;
}

/** The bytes of one file and their ETag, read once. */
export function loadFile(path: string, file: string): Loaded {
  let l = loaded.get(path);
  if (!l) {
    const body = new Uint8Array(readFileSync(file));
    l = { body, etag: etagOf(body) };
    loaded.set(path, l);
  }
  return l;
}
