/**
 * The `backups` setting (docs/operations.md), checked once at start. The backups never live among the uploads:
 * a backup would then contain the backups before it, and the sweep of crash leftovers, which removes
 * stored files no media document names, would remove them.
 */
import path from 'node:path';
import { parseCronSchedule } from './cron-schedule.ts';
import type { S3StorageOptions, SanitizedConfig, StorageAdapter, UserConfig } from './types.ts';

type Fail = (key: string, message: string) => never;
type Uploads = { dir: string; storage: StorageAdapter | S3StorageOptions | null };

export function sanitizeBackups(
  input: UserConfig['backups'],
  uploads: Uploads,
  resolve: (p: string) => string,
  fail: Fail,
): SanitizedConfig['backups'] {
  if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input)))
    fail('backups', 'must be an object');
  const backups = input ?? {};
  let schedule = null;
  if (backups.schedule !== undefined) {
    if (typeof backups.schedule !== 'string')
      fail('backups.schedule', "must be 'daily', 'hourly' or a cron expression");
    try {
      schedule = parseCronSchedule(backups.schedule);
    } catch (error) {
      fail('backups.schedule', (error as Error).message);
    }
  }
  const keep = backups.keep ?? 7;
  if (!Number.isInteger(keep) || keep < 1) fail('backups.keep', 'must be a whole number of backups, at least 1');
  if (backups.dir !== undefined && (typeof backups.dir !== 'string' || !backups.dir))
    fail('backups.dir', 'must be a folder path');
  const dir = resolve(backups.dir ?? 'backups/');
  if (!uploads.storage && isInside(dir, uploads.dir))
    fail('backups.dir', `"${dir}" is inside the uploads folder "${uploads.dir}"; choose a folder outside it`);
  const storage = backups.storage ?? null;
  if (storage !== null) {
    if (typeof storage !== 'object' || storage.type !== 's3' || typeof storage.bucket !== 'string' || !storage.bucket) {
      fail('backups.storage', "expected S3 options { type: 's3', bucket, … }");
    }
    if (sameS3Place(storage, uploads.storage))
      fail(
        'backups.storage',
        'is the same bucket and prefix as upload.storage; give the backups their own prefix (e.g. prefix: "backups")',
      );
  }
  return { schedule, keep, dir, storage };
}

function isInside(folder: string, parent: string): boolean {
  const relative = path.relative(path.resolve(parent), path.resolve(folder));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

const trimPrefix = (prefix: string | undefined) => (prefix ?? '').replace(/^\/+|\/+$/g, '');

function sameS3Place(backups: S3StorageOptions, uploads: Uploads['storage']): boolean {
  const other = uploads as S3StorageOptions | null;
  if (!other || other.type !== 's3') return false;
  return (
    other.bucket === backups.bucket &&
    (other.endpoint ?? '') === (backups.endpoint ?? '') &&
    trimPrefix(other.prefix) === trimPrefix(backups.prefix)
  );
}
