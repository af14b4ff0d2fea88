/**
 * `cms restore FILE` (docs/operations.md), in this order, so that a bad archive or a running server changes
 * nothing:
 *   1. verify: read the whole archive, every sha256 against the manifest (manifest.ts);
 *   2. refuse while any process holds the database file (src/db/sqlite/claim-file.ts);
 *   3. move the current database, secret and local uploads folder aside, each renamed beside itself
 *      with `.before-restore-<UTC time>` (never deleted; on S3 nothing is moved, and the backup's files are
 *      written over their own names, leaving any others where they are);
 *   4. extract, checking each entry's sha256 again as it is written.
 * A restore that stops during 3 or 4 puts back what it moved aside and removes what it wrote
 * (./restore-undo.ts), so the instance is left as it was, never half restored.
 * The restored instance then starts from exactly the database, secret, schema history and files it had at
 * backup time, so it answers what the original answered then.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SanitizedConfig } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import { claimDatabaseFile } from '../db/sqlite/claim-file.ts';
import { describeUrl } from '../db/postgres/connect.ts';
import { dumpPostgres, otherSessions, restorePostgres } from '../db/postgres/dump.ts';
import { stagingDirOf, stagingPath } from '../uploads/staging.ts';
import { createStorage } from '../uploads/storage/select.ts';
import { checkArchive, type CheckedArchive, type Manifest } from './manifest.ts';
import { restoringSecret, signatureMatches } from './archive-signature.ts';
import { readTarGz } from './tar-read.ts';
import { restoreUndo, type RestoreUndo } from './restore-undo.ts';

export type RestoreResult = { manifest: Manifest; movedAside: string[]; restored: number };
export type RestoreProgress = { phase: string; done?: number; total?: number };
/** `trustArchive`: restore an archive that is unsigned or signed by another instance (`--trust-archive`). */
export type RestoreOptions = { now: number; onProgress?: (progress: RestoreProgress) => void; trustArchive?: boolean };

const POSTGRES_DUMP = 'database/postgres.dump';

export async function restoreBackup(
  config: SanitizedConfig,
  file: string,
  options: RestoreOptions,
): Promise<RestoreResult> {
  if (!fs.existsSync(file)) throw new ConfigError(`${file} does not exist`);
  options.onProgress?.({ phase: 'verifying checksums' });
  const checked = await checkArchive(file).catch((error) => {
    throw new ConfigError(`${(error as Error).message}; nothing was changed`);
  });
  const { manifest } = checked;
  if (!options.trustArchive) await requireOwnSignature(config, file, checked);
  const dump = manifest.database === POSTGRES_DUMP;
  if (manifest.database && dump !== (config.databaseEngine === 'postgres')) {
    throw new ConfigError(
      `this backup holds a ${dump ? 'PostgreSQL' : 'SQLite'} database and the config names a ${config.databaseEngine === 'postgres' ? 'PostgreSQL' : 'SQLite'} one: restore it where it came from, then move it with cms migrate:engine; nothing was changed`,
    );
  }
  const busy = dump ? (await otherSessions(config.databasePath)) > 0 : !claimDatabaseFile(config.databasePath);
  if (busy) {
    throw new ConfigError(
      `a server (or another cms command) has ${dump ? describeUrl(config.databasePath) : config.databasePath} open: stop it, then run cms restore again; nothing was changed`,
    );
  }

  const undo = restoreUndo(`.before-restore-${new Date(options.now).toISOString().replace(/[-:]/g, '')}`);
  try {
    const restored = await replaceData(config, file, manifest, dump, undo, options);
    return { manifest, movedAside: undo.movedAside, restored };
  } catch (error) {
    // Halfway is the worst place to stop: the next start would find no database and open first-register.
    const failed = await undo.putBack();
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      failed.length
        ? `the restore stopped (${reason}) and could not put everything back: ${failed.join('; ')}`
        : `the restore stopped (${reason}); everything it had moved aside or written was put back, nothing was changed`,
    );
  }
}

/** Steps 3 and 4: the current data aside, the archive's in its place; each change noted in `undo`. */
async function replaceData(
  config: SanitizedConfig,
  file: string,
  manifest: Manifest,
  dump: boolean,
  undo: RestoreUndo,
  options: RestoreOptions,
): Promise<number> {
  const hasEntry = (prefix: string) => manifest.entries.some((e) => e.path.startsWith(prefix));
  let databaseRestored = false;
  options.onProgress?.({ phase: 'moving current data aside' });
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (dump) {
    // Nothing to rename on a server: the database as it was goes into a dump beside the data.
    const before = path.resolve(config.dataDir, `postgres.dump${undo.suffix}`);
    await dumpPostgres(config.databasePath, before);
    undo.movedAside.push(before);
    undo.add({
      what: `the database (as it was before, it is dumped in ${before})`,
      undo: async () => {
        // pg_restore runs in one transaction: only one that committed left anything to load back.
        if (databaseRestored) await restorePostgres(config.databasePath, before);
        await fs.promises.rm(before, { force: true });
      },
    });
  } else if (manifest.database) for (const f of ['', '-wal', '-shm']) await undo.moveAside(config.databasePath + f);
  if (hasEntry('data/secret')) await undo.moveAside(path.join(config.dataDir, 'secret'));
  if (!config.upload.storage) {
    await undo.moveAside(config.upload.dir);
    undo.writing(config.upload.dir);
  }

  fs.mkdirSync(config.dataDir, { recursive: true });
  const storage = await createStorage(config);
  const staging = stagingDirOf(storage, config.dataDir);
  fs.mkdirSync(staging, { recursive: true });
  const expected = new Map(manifest.entries.map((e) => [e.path, e.sha256]));
  let restored = 0;
  for await (const entry of readTarGz(file)) {
    const sha256 = expected.get(entry.name);
    if (!sha256) continue;
    const temp = stagingPath(staging);
    try {
      if ((await writeFile(entry.body, temp)) !== sha256)
        throw new Error(`${entry.name} changed since it was verified`);
      await place(entry.name, temp, entry.size);
    } finally {
      await fs.promises.rm(temp, { force: true });
    }
    restored++;
    options.onProgress?.({ phase: 'restoring', done: restored, total: expected.size });
  }
  return restored;

  async function place(name: string, temp: string, size: number) {
    const [kind, ...rest] = name.split('/');
    const relative = rest.join('/');
    if (kind === 'uploads')
      return storage.put(relative, Bun.file(temp), { contentType: 'application/octet-stream', size });
    if (name === POSTGRES_DUMP) {
      await restorePostgres(config.databasePath, temp);
      databaseRestored = true;
      return;
    }
    const target =
      kind === 'database'
        ? config.databasePath
        : kind === 'data'
          ? path.join(config.dataDir, relative)
          : path.join(config.migrationsDir, relative);
    if (kind === 'migrations' && fs.existsSync(target)) {
      // Migration files usually live in the project's repository: one that is already right stays put.
      if (Buffer.compare(fs.readFileSync(target), fs.readFileSync(temp)) === 0) return;
      await undo.moveAside(target);
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    undo.writing(target);
    await fs.promises.copyFile(temp, target);
    if (kind === 'data') fs.chmodSync(target, 0o600);
  }
}

const TRUST_HINT = 'if you know where it came from, run cms restore again with --trust-archive; nothing was changed';

/** Refuses an archive this instance did not sign (docs/operations.md "Backups": which secret a restore needs). */
async function requireOwnSignature(config: SanitizedConfig, file: string, archive: CheckedArchive): Promise<void> {
  if (!archive.signature)
    throw new ConfigError(`${file} is not signed, so nothing proves it was not changed: ${TRUST_HINT}`);
  const secret = await restoringSecret(config);
  if (!secret) {
    throw new ConfigError(
      `${file} is signed, but this instance has no secret yet to check it with: set \`secret\` (or CMS_SECRET) to the secret of the instance that wrote it, or copy its data/secret file here; or ${TRUST_HINT}`,
    );
  }
  if (!signatureMatches(secret, archive.manifestText, archive.signature)) {
    throw new ConfigError(
      `${file} was not signed by this instance (another instance's secret, or changed since it was signed): set \`secret\` (or CMS_SECRET) to the secret of the instance that wrote it; or ${TRUST_HINT}`,
    );
  }
}

async function writeFile(body: AsyncIterable<Uint8Array>, file: string): Promise<string> {
  const hash = new Bun.CryptoHasher('sha256');
  const out = fs.createWriteStream(file, { mode: 0o600 });
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => {});
  for await (const chunk of body) {
    hash.update(chunk);
    if (!out.write(chunk)) await Promise.race([new Promise((r) => out.once('drain', r)), failed]);
  }
  await Promise.race([new Promise((r) => out.end(r)), failed]);
  return hash.digest('hex');
}
