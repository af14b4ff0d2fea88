/**
 * `cms replica restore` and `cms replica verify` (docs/replication.md "Restore"). The database of the
 * chosen moment is first rebuilt and checked in a staging folder (./rebuild.ts); only then is anything put
 * in place: into another folder (`--to DIR`, which must be empty or absent), or in place, after the
 * current data folder was moved aside to `<data>.before-restore-<time>` (moving it back undoes the
 * restore). In place is refused while a server (or any process) has the database open.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SanitizedConfig } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import { claimDatabaseFile } from '../db/sqlite/claim-file.ts';
import { restoreUndo } from '../backups/restore-undo.ts';
import { rebuildDatabase, type Rebuilt, type RestorePoint } from './rebuild.ts';
import { openTarget } from './target.ts';

export type ReplicaRestoreResult = Rebuilt & { into: string; movedAside: string[] };

function settingsOf(config: SanitizedConfig) {
  if (!config.replica) throw new ConfigError('the config sets no replica (replica: { url })');
  return config.replica;
}

/** On PostgreSQL the replica holds the uploads only: the database is restored with the server's own tools. */
const uploadsOnly = (config: SanitizedConfig) => config.databaseEngine !== 'sqlite';

const stagingBeside = (folder: string) =>
  path.join(path.dirname(path.resolve(folder)), `.${path.basename(folder)}.replica-restore-${process.pid}`);

export async function restoreReplica(
  config: SanitizedConfig,
  point: RestorePoint,
  options: { to?: string; now: number },
): Promise<ReplicaRestoreResult> {
  const settings = settingsOf(config);
  if (uploadsOnly(config)) return restoreUploads(config, point, options);
  const target = openTarget(settings);
  const into = path.resolve(options.to ?? config.dataDir);
  if (options.to && fs.existsSync(into) && fs.readdirSync(into).length > 0)
    throw new ConfigError(`${into} is not empty: restore into an empty or new folder; nothing was changed`);
  if (!options.to && !claimDatabaseFile(config.databasePath))
    throw new ConfigError(
      `a server (or another cms command) has ${config.databasePath} open: stop it, then run cms replica restore again; nothing was changed`,
    );
  const staging = stagingBeside(into);
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    const rebuilt = await rebuildDatabase(target, point, staging, settings.encryptionKey);
    if (options.to) {
      place(rebuilt, into, path.basename(config.databasePath));
      if (rebuilt.uploads) moveFolder(rebuilt.uploads, path.join(into, 'uploads'));
      return { ...rebuilt, into, movedAside: [] };
    }
    const undo = restoreUndo(`.before-restore-${new Date(options.now).toISOString().replace(/[-:]/g, '')}`);
    await undo.moveAside(config.dataDir);
    try {
      place(rebuilt, path.dirname(config.databasePath), path.basename(config.databasePath));
      keepTheRest(undo.movedAside[0] ?? null, config);
      if (rebuilt.uploads && !config.upload.storage) {
        await undo.moveAside(config.upload.dir);
        undo.writing(config.upload.dir);
        moveFolder(rebuilt.uploads, config.upload.dir);
      }
    } catch (error) {
      const failed = await undo.putBack();
      throw new ConfigError(
        `the restore stopped (${(error as Error).message})${failed.length ? ` and could not put back: ${failed.join('; ')}` : '; the data folder was put back, nothing was changed'}`,
      );
    }
    return { ...rebuilt, into: config.dataDir, movedAside: undo.movedAside };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * On PostgreSQL: the uploads of the moment, into `DIR/uploads` or in place of the local uploads folder,
 * which is moved aside to `<uploads>.before-restore-<time>` (moving it back undoes the restore).
 */
async function restoreUploads(
  config: SanitizedConfig,
  point: RestorePoint,
  options: { to?: string; now: number },
): Promise<ReplicaRestoreResult> {
  const settings = config.replica!;
  if (config.upload.storage && !options.to)
    throw new ConfigError('the uploads are in S3 storage, not copied to the replica: nothing to restore here');
  const into = path.resolve(options.to ?? config.upload.dir);
  if (options.to && fs.existsSync(into) && fs.readdirSync(into).length > 0)
    throw new ConfigError(`${into} is not empty: restore into an empty or new folder; nothing was changed`);
  const staging = stagingBeside(into);
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    const rebuilt = await rebuildDatabase(openTarget(settings), point, staging, settings.encryptionKey, true);
    if (!rebuilt.uploads) throw new ConfigError('the replica holds no list of uploads; nothing was changed');
    if (options.to) {
      moveFolder(rebuilt.uploads, path.join(into, 'uploads'));
      return { ...rebuilt, into, movedAside: [] };
    }
    const undo = restoreUndo(`.before-restore-${new Date(options.now).toISOString().replace(/[-:]/g, '')}`);
    await undo.moveAside(into);
    try {
      undo.writing(into);
      moveFolder(rebuilt.uploads, into);
    } catch (error) {
      const failed = await undo.putBack();
      throw new ConfigError(
        `the restore stopped (${(error as Error).message})${failed.length ? ` and could not put back: ${failed.join('; ')}` : '; the uploads folder was put back, nothing was changed'}`,
      );
    }
    return { ...rebuilt, into, movedAside: undo.movedAside };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function moveFolder(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.renameSync(from, to);
  } catch {
    // Another filesystem: copied instead.
    fs.cpSync(from, to, { recursive: true });
  }
}

/** The database file and the instance secret into `folder`. */
function place(rebuilt: Rebuilt, folder: string, databaseName: string): void {
  fs.mkdirSync(folder, { recursive: true });
  fs.copyFileSync(rebuilt.file!, path.join(folder, databaseName));
  const secret = path.join(folder, 'secret');
  if (rebuilt.secret && !fs.existsSync(secret)) fs.writeFileSync(secret, `${rebuilt.secret}\n`, { mode: 0o600 });
}

/**
 * What the data folder held beside the database comes back from the folder moved aside (migration files
 * of the built-in defaults, the image library): the restore replaces the database and secret only.
 */
function keepTheRest(aside: string | null, config: SanitizedConfig): void {
  if (!aside) return;
  const database = path.basename(config.databasePath);
  const replaced = new Set([database, `${database}-wal`, `${database}-shm`, 'secret', '.replica']);
  for (const name of fs.readdirSync(aside)) {
    if (replaced.has(name)) continue;
    fs.cpSync(path.join(aside, name), path.join(config.dataDir, name), { recursive: true });
  }
}

/** Rebuilds the latest into a temporary folder and checks it; the folder is removed afterwards. */
export async function verifyReplica(config: SanitizedConfig): Promise<Rebuilt> {
  const settings = settingsOf(config);
  const staging = stagingBeside(path.join(config.dataDir, 'verify'));
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    return await rebuildDatabase(openTarget(settings), {}, staging, settings.encryptionKey, uploadsOnly(config));
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
