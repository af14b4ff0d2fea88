// Runs once (on the SQLite pass): restores SQLite archives, whatever the run's engine.
/**
 * `cms restore` reads an archive someone hands over: a symbolic or hard link entry is never followed or
 * made, and a manifest naming a path that climbs out with `..` is refused before anything changes. So is
 * an archive that would stop a restore halfway (an entry twice, a database named but not there), even one
 * the instance signed; and a restore that stops halfway anyway puts back everything it moved or wrote.
 */
import { afterAll, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { signManifest } from '../../src/backups/archive-signature.ts';
import { MANIFEST_ENTRY, verifyArchive } from '../../src/backups/manifest.ts';
import { restoreBackup } from '../../src/backups/restore-backup.ts';
import { writeTarGz } from '../../src/backups/tar-write.ts';
import { loadConfig } from '../../src/config/load.ts';
import { tempDir } from '../harness.ts';
import { fingerprint } from '../support/media-fixtures.ts';

const work = tempDir('cms-restore-links-');
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const sha256 = (bytes: string | Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex');

/** A .tar.gz made by the system's tar from `files` (a string body, or `{ link }` for a symbolic link). */
function archive(
  name: string,
  files: Record<string, string | { link: string }>,
  entries: { path: string; size: number; sha256: string }[],
): string {
  const dir = path.join(work, name);
  const all: Record<string, string | { link: string }> = {
    ...files,
    'manifest.json': JSON.stringify({
      format: 'cms-backup',
      formatVersion: 1,
      version: '0',
      createdAt: '',
      engine: 'sqlite',
      database: null,
      counts: { documents: {}, uploads: 0, uploadBytes: 0 },
      entries,
    }),
  };
  for (const [file, body] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    if (typeof body === 'string') fs.writeFileSync(path.join(dir, file), body);
    else fs.symlinkSync(body.link, path.join(dir, file));
  }
  const out = path.join(work, `${name}.tar.gz`);
  const made = Bun.spawnSync(['tar', '-czf', out, '-C', dir, ...Object.keys(files), 'manifest.json']);
  expect(made.exitCode).toBe(0);
  return out;
}

test('a symbolic link entry is not read as the file the manifest names', async () => {
  const target = '/etc/hostname';
  const file = archive('symlink', { 'data/secret': { link: target } }, [
    { path: 'data/secret', size: 0, sha256: sha256('') },
  ]);
  await expect(verifyArchive(file)).rejects.toThrow('data/secret is missing');
});

test('a manifest naming a path with .. is refused', async () => {
  const file = archive('dotdot', { 'migrations/x.sql': 'select 1;' }, [
    { path: 'migrations/../../x.sql', size: 9, sha256: sha256('select 1;') },
  ]);
  await expect(verifyArchive(file)).rejects.toThrow('the manifest names an unexpected entry "migrations/../../x.sql"');
});

const SECRET = 'the-secret-of-the-instance-being-restored';

/** A SQLite database file holding one row that says where it came from. */
function databaseBytes(label: string): Buffer {
  const file = path.join(work, `${label}-${Math.random().toString(36).slice(2)}.db`);
  const db = new Database(file);
  db.exec(`CREATE TABLE origin (label TEXT); INSERT INTO origin VALUES ('${label}')`);
  db.close();
  return fs.readFileSync(file);
}

/** An instance's folder as a restore finds it: its database, secret file, an upload and a migration. */
function liveFolder(): { dir: string; config: ReturnType<typeof loadConfig> } {
  const dir = tempDir('cms-restore-live-');
  fs.mkdirSync(path.join(dir, 'data'));
  fs.writeFileSync(path.join(dir, 'data/cms.db'), databaseBytes('live'));
  fs.writeFileSync(path.join(dir, 'data/secret'), 'the live secret file');
  fs.mkdirSync(path.join(dir, 'uploads'));
  fs.writeFileSync(path.join(dir, 'uploads/live-0123456789.pdf'), '%PDF live');
  const config = loadConfig({ config: { database: path.join(dir, 'data/cms.db'), secret: SECRET }, rootDir: dir });
  return { dir, config };
}

/**
 * A .tar.gz as a backup writes it, signed with the restoring instance's secret: `entries` in order (a
 * name may repeat), and a manifest listing each name once with its last copy's checksum.
 */
async function signedArchive(
  name: string,
  entries: { name: string; bytes: Uint8Array }[],
  database: string | null = 'database/cms.db',
): Promise<string> {
  const file = path.join(work, `${name}.tar.gz`);
  const out = writeTarGz(file);
  const listed = new Map<string, { path: string; size: number; sha256: string }>();
  for (const entry of entries) {
    const sha256 = await out.add(entry.name, entry.bytes.byteLength, [entry.bytes]);
    listed.set(entry.name, { path: entry.name, size: entry.bytes.byteLength, sha256 });
  }
  const manifest = new TextEncoder().encode(
    JSON.stringify({
      format: 'cms-backup',
      formatVersion: 1,
      version: '0',
      createdAt: '',
      engine: 'sqlite',
      database,
      counts: { documents: {}, uploads: 1, uploadBytes: 0 },
      entries: [...listed.values()],
    }),
  );
  await out.add(MANIFEST_ENTRY, manifest.byteLength, [manifest]);
  const signature = new TextEncoder().encode(signManifest(SECRET, manifest));
  await out.add('manifest.sig', signature.byteLength, [signature]);
  await out.close();
  return file;
}

const backupEntries = () => [
  { name: 'database/cms.db', bytes: databaseBytes('restored') },
  { name: 'data/secret', bytes: Buffer.from('the restored secret file') },
  { name: 'migrations/0000_restored.sql', bytes: Buffer.from('select 1;') },
  { name: 'uploads/restored-0123456789.pdf', bytes: Buffer.from('%PDF restored') },
];

test('a signed archive holding the database twice is refused before anything is touched', async () => {
  const live = liveFolder();
  const [database, ...rest] = backupEntries();
  const file = await signedArchive('database-twice', [
    { name: 'database/cms.db', bytes: Buffer.from('not a database at all') },
    database,
    ...rest,
  ]);
  const before = fingerprint(live.dir);
  await expect(verifyArchive(file)).rejects.toThrow('database/cms.db appears twice');
  await expect(restoreBackup(await live.config, file, { now: Date.now() })).rejects.toThrow(
    /database\/cms\.db appears twice; nothing was changed/,
  );
  expect(fingerprint(live.dir)).toEqual(before);
});

test('a manifest naming a database the archive does not list, or listing one it does not name, is refused', async () => {
  const live = liveFolder();
  const before = fingerprint(live.dir);
  const withoutDatabase = await signedArchive('database-named-only', backupEntries().slice(1));
  await expect(restoreBackup(await live.config, withoutDatabase, { now: Date.now() })).rejects.toThrow(
    /names the database database\/cms\.db but does not list it; nothing was changed/,
  );
  const unnamed = await signedArchive('database-unnamed', backupEntries(), null);
  await expect(restoreBackup(await live.config, unnamed, { now: Date.now() })).rejects.toThrow(
    /lists a database entry it does not name as its database; nothing was changed/,
  );
  expect(fingerprint(live.dir)).toEqual(before);
});

test('a restore that stops halfway puts back what it moved aside and removes what it wrote', async () => {
  const live = liveFolder();
  const entries = backupEntries();
  const file = await signedArchive('changed-while-restoring', entries);
  // The archive is changed after it was verified: the upload, written after the database, no longer matches.
  const changed = zlib.gunzipSync(fs.readFileSync(file));
  changed[changed.indexOf('%PDF restored')] ^= 0x01;
  const before = fingerprint(live.dir);
  const phases: string[] = [];
  const onProgress = ({ phase }: { phase: string }) => {
    phases.push(phase);
    if (phase === 'moving current data aside') fs.writeFileSync(file, zlib.gzipSync(changed));
  };
  await expect(restoreBackup(await live.config, file, { now: Date.now(), onProgress })).rejects.toThrow(
    /uploads\/restored-0123456789\.pdf changed since it was verified.*put back, nothing was changed/,
  );
  expect(phases).toContain('restoring'); // the database and the secret had been written over
  expect(fingerprint(live.dir)).toEqual(before);
  const db = new Database(path.join(live.dir, 'data/cms.db'), { readonly: true });
  expect(db.query('SELECT label FROM origin').get()).toEqual({ label: 'live' });
  db.close();
});
