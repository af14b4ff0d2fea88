/**
 * One backup (docs/operations.md): a single `cms-backup-<UTC time>.tar.gz` holding
 *   database/cms.db    a consistent copy of the SQLite database (store.snapshotTo), or on PostgreSQL
 *   database/postgres.dump  a pg_dump of it when asked for (`withDatabase`), else no database entry
 *   data/secret        the generated instance secret, when there is one (preview and CSRF tokens stay valid)
 *   migrations/…       the migration files beside the config (the restored schema's history)
 *   uploads/<key>      every stored file, read through the storage adapter (local disk or S3), streamed
 *   manifest.json      version, time, counts and the sha256 of every entry above
 *   manifest.sig       last: the manifest's HMAC under a key derived from the instance secret
 * The server keeps serving throughout: the snapshot runs off the main thread on its own connection, and
 * every file is streamed through gzip with backpressure. `cms backup`, `POST /backups` and the schedule
 * all come here; one backup at a time per process.
 */
import fs from 'node:fs';
import path from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import type { CMS } from '../cms.ts';
import { APIError } from '../errors.ts';
import { countRows } from '../db/documents.ts';
import { backupName, backupTarget, type BackupInfo } from './backup-target.ts';
import { MANIFEST_ENTRY, type Manifest, type ManifestEntry } from './manifest.ts';
import { writeTarGz } from './tar-write.ts';
import { SIGNATURE_ENTRY, signManifest } from './archive-signature.ts';

export type BackupProgress = { name: string; phase: 'database' | 'uploads' | 'finishing'; done: number; total: number };
/** `withDatabase`: on PostgreSQL, also `pg_dump` the database into the archive (SQLite's is always in it). */
export type BackupOptions = {
  outDir?: string;
  onProgress?: (progress: BackupProgress) => void;
  signal?: AbortSignal;
  withDatabase?: boolean;
};
export type BackupResult = BackupInfo & { where: string; manifest: Manifest };

const running = new WeakMap<CMS, BackupProgress>();

/** The backup this process is writing now, if any (the admin's progress bar). */
export const runningBackup = (cms: CMS): BackupProgress | null => running.get(cms) ?? null;

/**
 * The order matters on PostgreSQL: a dump taken before this archive holds no document whose file is
 * missing from it (files of documents created in between are extra, and the sweep removes them an hour
 * after the restored instance starts); a dump taken after it may hold documents whose files are not here.
 */
export const POSTGRES_NOTE =
  'The database is PostgreSQL and is not in this archive: take its dump (pg_dump) BEFORE running cms backup, so that every document in the dump has its file here; or run cms backup --with-database to put a pg_dump of it in this archive. This archive holds the uploads, the migration files and the manifest.';

/** Where each kind of database copy goes in the archive. */
const DATABASE_ENTRY = { sqlite: 'database/cms.db', pg_dump: 'database/postgres.dump' } as const;

export async function createBackup(cms: CMS, options: BackupOptions = {}): Promise<BackupResult> {
  if (running.has(cms)) throw new APIError(409, 'A backup is already running.');
  const name = backupName(cms.clock.now());
  const progress: BackupProgress = { name, phase: 'database', done: 0, total: 0 };
  running.set(cms, progress);
  const report = () => options.onProgress?.({ ...progress });
  const target = backupTarget(cms.config, options.outDir);
  await fs.promises.mkdir(target.stagingDir, { recursive: true });
  const staged = path.join(target.stagingDir, `.${name}.partial`);
  const snapshot = path.join(target.stagingDir, `.${name}.db.partial`);
  const archive = writeTarGz(staged);
  try {
    if (await target.open(name)) throw new APIError(409, `${name} exists already.`);
    const entries: ManifestEntry[] = [];
    const add = async (entryPath: string, size: number, body: AsyncIterable<Uint8Array>) => {
      options.signal?.throwIfAborted();
      entries.push({ path: entryPath, size, sha256: await archive.add(entryPath, size, body) });
    };
    report();

    // The database first, the files after: every document in the copy then has its file in the archive.
    const copied = await cms.store.snapshotTo(snapshot, { dump: options.withDatabase });
    if (copied) await add(DATABASE_ENTRY[copied.format], fs.statSync(snapshot).size, fs.createReadStream(snapshot));
    await fs.promises.rm(snapshot, { force: true });
    const secretFile = path.join(cms.config.dataDir, 'secret');
    if (fs.existsSync(secretFile))
      await add('data/secret', fs.statSync(secretFile).size, fs.createReadStream(secretFile));
    for (const file of listFiles(cms.config.migrationsDir)) {
      await add(`migrations/${file.relative}`, file.size, fs.createReadStream(file.absolute));
    }

    progress.phase = 'uploads';
    const keys = await uploadKeys(cms);
    progress.total = keys.length;
    report();
    let uploadBytes = 0;
    for (const key of keys) {
      // A file deleted since the listing (its document deleted meanwhile) is simply not in this backup.
      const stored = await cms.storage.get(key);
      if (stored) {
        await add(`uploads/${key}`, stored.size, stored.body instanceof Blob ? stored.body.stream() : stored.body);
        uploadBytes += stored.size;
      }
      progress.done++;
      report();
    }

    progress.phase = 'finishing';
    report();
    const manifest: Manifest = {
      format: 'cms-backup',
      formatVersion: 1,
      version: pkg.version,
      createdAt: new Date(cms.clock.now()).toISOString(),
      engine: cms.store.engine,
      database: copied ? DATABASE_ENTRY[copied.format] : null,
      ...(copied ? {} : { note: POSTGRES_NOTE }),
      counts: {
        documents: await documentCounts(cms, copied?.rows ?? null),
        uploads: entries.filter((e) => e.path.startsWith('uploads/')).length,
        uploadBytes,
      },
      entries,
    };
    const text = new TextEncoder().encode(JSON.stringify(manifest, null, 2));
    await archive.add(MANIFEST_ENTRY, text.byteLength, [text]);
    const signature = new TextEncoder().encode(signManifest(cms.secret, text));
    await archive.add(SIGNATURE_ENTRY, signature.byteLength, [signature]);
    await archive.close();
    const size = fs.statSync(staged).size;
    await target.keep(staged, name);
    if (!options.outDir) await pruneBackups(cms);
    return {
      name,
      size,
      createdAt: manifest.createdAt,
      where: options.outDir
        ? path.resolve(options.outDir)
        : cms.config.backups.storage
          ? `s3://${cms.config.backups.storage.bucket}`
          : cms.config.backups.dir,
      manifest,
    };
  } catch (error) {
    archive.destroy();
    await fs.promises.rm(staged, { force: true });
    await fs.promises.rm(snapshot, { force: true });
    throw error;
  } finally {
    running.delete(cms);
  }
}

/** Retention: the newest `backups.keep` stay, older ones in the configured place are removed. */
export async function pruneBackups(cms: CMS): Promise<string[]> {
  const target = backupTarget(cms.config);
  const old = (await target.list()).slice(cms.config.backups.keep);
  for (const backup of old) await target.remove(backup.name);
  return old.map((b) => b.name);
}

async function uploadKeys(cms: CMS): Promise<string[]> {
  if (!cms.storage.list) {
    cms.log.warn('backup: the storage adapter cannot list its files, so this backup holds no uploads');
    return [];
  }
  const keys: string[] = [];
  for await (const { key } of cms.storage.list()) keys.push(key);
  return keys.sort();
}

/** Documents per collection and global, from the copy's row counts when there is a copy. */
async function documentCounts(cms: CMS, rows: Record<string, number> | null): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const entity of [...cms.config.collections, ...cms.config.globals]) {
    const key = entity.kind === 'global' ? `globals/${entity.slug}` : entity.slug;
    counts[key] = rows ? (rows[entity.table] ?? 0) : await countRows(cms.store, entity, null);
  }
  return counts;
}

function listFiles(root: string, relative = ''): { relative: string; absolute: string; size: number }[] {
  const folder = path.join(root, relative);
  const found: { relative: string; absolute: string; size: number }[] = [];
  for (const entry of fs.existsSync(folder) ? fs.readdirSync(folder, { withFileTypes: true }) : []) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...listFiles(root, child));
    else if (entry.isFile())
      found.push({ relative: child, absolute: path.join(root, child), size: fs.statSync(path.join(root, child)).size });
  }
  return found.sort((a, b) => a.relative.localeCompare(b.relative));
}
