/**
 * Reading a folder someone hands over (an export that travelled through git, a zip, a colleague): only
 * regular files that really lie inside it count. A symbolic link (to the config, to a secret) or a name
 * that climbs out with `..` is a reason to refuse, never something to follow.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The problem with `relative` inside `root`, or null when it is a regular file really inside the folder. */
export async function outsideFileProblem(root: string, relative: string): Promise<string | null> {
  const parts = relative.split(/[\\/]/);
  if (path.isAbsolute(relative) || parts.some((p) => p === '..' || p === '.' || p === ''))
    return 'names a path outside the folder';
  const file = path.join(root, relative);
  const stat = await fs.promises.lstat(file).catch(() => null);
  if (!stat) return 'is missing from the folder';
  if (stat.isSymbolicLink()) return 'is a symbolic link (only regular files are read)';
  if (!stat.isFile()) return 'is not a regular file';
  // A parent folder could itself be a link: the real path must still be inside the folder's real path.
  const [realRoot, realFile] = await Promise.all([fs.promises.realpath(root), fs.promises.realpath(file)]);
  const inside = path.relative(realRoot, realFile);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return 'lies outside the folder';
  return null;
}
