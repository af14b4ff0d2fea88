/**
 * A small filesystem for full-disk tests: a tmpfs mounted at a new temp folder. Mounting needs root;
 * without it the tests that need one skip locally, and in CI (`CI` set) the run fails, as a missing
 * Chromium or PostgreSQL does, so a full-disk test is never silently not run there.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tempDir } from '../harness.ts';

export type SmallDisk = { dir: string; unmount(): void };

/** A tmpfs of `megabytes` at a new folder, or null (locally) where this process may not mount one. */
export function smallDisk(megabytes: number): SmallDisk | null {
  const dir = tempDir('cms-small-disk-');
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir]);
  if (mounted.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    if (process.env.CI && process.env.CI !== 'false') {
      throw new Error(
        `A ${megabytes} MB tmpfs could not be mounted (${String(mounted.stderr ?? mounted.error).trim()}): the full-disk tests need root in CI.`,
      );
    }
    console.warn(`skipping the full-disk tests: a tmpfs cannot be mounted here (run as root to include them)`);
    return null;
  }
  return {
    dir,
    unmount() {
      spawnSync('umount', [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
