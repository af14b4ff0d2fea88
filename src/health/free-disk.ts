/** Free space of a folder's file system for this process (`statfs`); Infinity when it cannot be read. */
import fs from 'node:fs';

export function freeBytes(folder: string): Promise<number> {
  return fs.promises.statfs(folder).then(
    (s) => s.bavail * s.bsize,
    () => Infinity,
  );
}
