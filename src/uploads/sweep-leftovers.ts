/**
 * Crash leftovers (docs/operations.md): a process killed mid-upload leaves staged `.part`
 * files, or stored files whose media document was never written. The sweep removes staged files and
 * stored files that no document of an upload collection names (its original or any image size), once they are older than
 * an hour: a younger one may be an upload that another process is finishing right now.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CMS } from '../cms.ts';
import { isUploadCollection } from '../config/upload-collections.ts';
import { quote } from '../query/where.ts';
import { mediaFileKeys, removeStoredFiles } from './media-files.ts';
import { removeQuietly, stagingDirOf } from './staging.ts';

export const LEFTOVER_AGE_MS = 60 * 60 * 1000;

export type SweepCounts = { staged: number; stored: number };

export async function sweepUploadLeftovers(cms: CMS): Promise<SweepCounts> {
  const cutoff = cms.clock.now() - LEFTOVER_AGE_MS;
  const staged = await sweepStaged(stagingDirOf(cms.storage, cms.config.dataDir), cutoff);
  const stored = await sweepStored(cms, cutoff);
  if (staged || stored)
    cms.log.info(`uploads: removed ${staged} staged and ${stored} stored files left by an interrupted upload`);
  return { staged, stored };
}

async function sweepStaged(dir: string, cutoff: number): Promise<number> {
  let removed = 0;
  for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat?.isFile() && stat.mtimeMs < cutoff) {
      await removeQuietly(file);
      removed++;
    }
  }
  return removed;
}

async function sweepStored(cms: CMS, cutoff: number): Promise<number> {
  if (!cms.storage.list) return 0;
  // Old candidates first, then the names in use: a document written in between names a file that is
  // younger than the cutoff, so it is never a candidate.
  const old: string[] = [];
  for await (const { key, lastModified } of cms.storage.list()) if (lastModified < cutoff) old.push(key);
  if (old.length === 0) return 0;
  const named = await namedFiles(cms);
  const orphans = old.filter((key) => !named.has(key));
  await removeStoredFiles(cms, orphans, 'sweeping upload leftovers');
  return orphans.length;
}

/** Every file name that a document of any upload collection holds: originals and image sizes. */
export async function namedFiles(cms: CMS): Promise<Set<string>> {
  const names = new Set<string>();
  for (const collection of cms.config.collections.filter(isUploadCollection)) {
    const rows = await cms.store.all<{ filename: string | null; sizes: unknown }>(
      `SELECT "filename", "sizes" FROM ${quote(collection.table)}`,
    );
    for (const row of rows) {
      for (const key of mediaFileKeys({
        filename: row.filename,
        sizes: row.sizes ? cms.store.dialect.decodeJSON(row.sizes) : null,
      }))
        names.add(key);
    }
  }
  return names;
}
