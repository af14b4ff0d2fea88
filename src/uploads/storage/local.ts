/**
 * Local disk storage (the default): files in `upload.dir`, flat, under their stored names. Arriving
 * uploads are staged in `<dir>/.incoming` (same filesystem), so putting one in place is an atomic rename:
 * a reader never sees half a file, and a crash leaves only a staged file, swept on a later start
 * (src/uploads/sweep-leftovers.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { StorageAdapter, StoredFile } from '../../config/types.ts';
import { STORED_NAME } from '../file-names.ts';
import { removeQuietly, stagingPath } from '../staging.ts';

export function createLocalStorage(dir: string): StorageAdapter & { dir: string; stagingDir: string } {
  const root = path.resolve(dir);
  const stagingDir = path.join(root, '.incoming');
  const fileOf = (key: string) => {
    if (!STORED_NAME.test(key)) throw new Error(`local storage: "${key}" is not a stored file name`);
    return path.join(root, key);
  };

  return {
    dir: root,
    stagingDir,
    async init() {
      // At every start, before the first answer: the first asynchronous file call costs about a millisecond
      // (its thread and module), a folder that is there already a few microseconds this way.
      fs.mkdirSync(stagingDir, { recursive: true });
    },
    async put(key, body) {
      const target = fileOf(key);
      const source = (body as { name?: unknown }).name;
      if (typeof source === 'string' && path.dirname(path.resolve(source)) === stagingDir) {
        await fs.promises.rename(source, target);
        return;
      }
      const temp = stagingPath(stagingDir);
      try {
        await Bun.write(temp, body);
        await fs.promises.rename(temp, target);
      } catch (error) {
        await removeQuietly(temp);
        throw error;
      }
    },
    async get(key): Promise<StoredFile | null> {
      const file = fileOf(key);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat?.isFile()) return null;
      return {
        body: Bun.file(file),
        size: stat.size,
        etag: `"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`,
        lastModified: stat.mtimeMs,
      };
    },
    async delete(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
    async *list() {
      for (const name of await fs.promises.readdir(root)) {
        if (!STORED_NAME.test(name)) continue;
        const stat = await fs.promises.stat(path.join(root, name)).catch(() => null);
        if (stat?.isFile()) yield { key: name, lastModified: stat.mtimeMs, size: stat.size };
      }
    },
  };
}
