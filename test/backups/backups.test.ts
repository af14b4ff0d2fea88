/**
 * Backups and restore (docs/operations.md): a backup taken while documents and uploads keep arriving restores
 * into a fresh folder with every write acknowledged before it started, byte for byte, and a database that
 * passes `PRAGMA integrity_check`; a damaged archive and a running server are refused before anything is
 * touched; S3 uploads and an S3 target; the schedule and retention by cms.clock; the HTTP routes' rights.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createBackup } from '../../src/backups/create-backup.ts';
import { verifyArchive } from '../../src/backups/manifest.ts';
import { restoreBackup } from '../../src/backups/restore-backup.ts';
import { loadConfig } from '../../src/config/load.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { fellDueBetween, parseCronSchedule } from '../../src/config/cron-schedule.ts';
import { runScheduledBackupIfDue } from '../../src/jobs/scheduled-backup.ts';
import { runScenarios, startTestServer, tempDir, type TestServer } from '../harness.ts';
import { fingerprint, form, pdf, png } from '../support/media-fixtures.ts';
import { startS3Server, type S3TestServer } from '../support/s3-server.ts';

const config: UserConfig = {
  collections: [
    {
      slug: 'posts',
      fields: [
        { name: 'title', type: 'text' },
        { name: 'body', type: 'textarea' },
      ],
      access: { read: () => true },
    },
  ],
};

// These restores go into other folders, whose instances have another secret or none yet: the signature
// that refuses such archives without --trust-archive is tested in test/backups/signature.test.ts.
const trustArchive = true;
const configIn = (dir: string, extra: UserConfig = {}) =>
  loadConfig({ config: { database: path.join(dir, 'data/cms.db'), ...config, ...extra }, rootDir: dir });

async function download(t: TestServer, token: string, name: string, dir: string): Promise<string> {
  const res = await fetch(`${t.api}/backups/${name}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/gzip');
  const file = path.join(dir, name);
  await Bun.write(file, res);
  return file;
}

describe('a backup under continuous writes restores into a fresh folder', () => {
  let t: TestServer;
  let token: string;
  let archive: string;
  const work = tempDir('cms-backup-work-');
  const fresh = tempDir('cms-restore-');
  const acknowledged: { at: number; kind: 'post' | 'file'; id: number; body: any; bytes?: Uint8Array }[] = [];
  let backupStarted = 0;
  let backupEnded = 0;

  beforeAll(async () => {
    t = await startTestServer(config, { engine: 'sqlite' });
    token = (await t.user('admin')).token;
    // Some bulk, so the backup takes long enough for writes to land while it runs.
    for (let i = 0; i < 6; i++) {
      const res = await t.request('POST', '/media', { token, body: form(pdf(400_000 + i), `seed-${i}.pdf`) });
      expect(res.status).toBe(201);
    }
    let stop = false;
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        if (i % 4 === 3) {
          const bytes = i % 8 === 3 ? await png(40 + n, 20 + (i % 50)) : pdf(50_000 + i);
          const res = await t.request('POST', '/media', {
            token,
            body: form(bytes, `w${n}-${i}.${bytes[0] === 0x25 ? 'pdf' : 'png'}`),
          });
          expect(res.status).toBe(201);
          acknowledged.push({ at: performance.now(), kind: 'file', id: res.body.doc.id, body: res.body.doc, bytes });
        } else {
          const res = await t.request('POST', '/posts', {
            token,
            body: { title: `post ${n}-${i}`, body: 'x'.repeat(2000) },
          });
          expect(res.status).toBe(201);
          acknowledged.push({ at: performance.now(), kind: 'post', id: res.body.doc.id, body: res.body.doc });
        }
      }
    };
    const writers = [writer(1), writer(2)];
    while (acknowledged.length < 40) await Bun.sleep(5);
    backupStarted = performance.now();
    const res = await t.request('POST', '/backups', { token });
    backupEnded = performance.now();
    expect(res.status).toBe(201);
    await Bun.sleep(50);
    stop = true;
    await Promise.all(writers);
    archive = await download(t, token, res.body.doc.name, work);
  }, 60_000);

  afterAll(async () => {
    await t?.stop();
    for (const dir of [work, fresh]) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('writes went on while the backup ran', () => {
    const during = acknowledged.filter((a) => a.at > backupStarted && a.at < backupEnded);
    expect(during.length).toBeGreaterThan(0);
  });

  test('the restored folder has every document and file acknowledged before the backup, and a sound database', async () => {
    const before = acknowledged.filter((a) => a.at < backupStarted);
    const manifest = await verifyArchive(archive);
    expect(manifest.counts.documents.posts).toBeGreaterThanOrEqual(before.filter((a) => a.kind === 'post').length);
    expect(manifest.entries.map((e) => e.path)).toContain('database/cms.db');

    const result = await restoreBackup(await configIn(fresh), archive, { now: Date.now(), trustArchive });
    expect(result.movedAside).toEqual([]);
    const db = new Database(path.join(fresh, 'data/cms.db'), { readonly: true });
    expect(db.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    db.close();

    const restored = await startTestServer(config, { dir: fresh, engine: 'sqlite' });
    try {
      for (const a of before) {
        const res = await restored.request('GET', `/${a.kind === 'post' ? 'posts' : 'media'}/${a.id}?depth=0`, {
          token,
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(a.body);
        if (a.bytes) {
          const file = await fetch(`${restored.api}/media/file/${a.body.filename}`);
          expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(a.bytes));
        }
      }
      // The sessions came back too: the original admin's token still works.
      expect((await restored.request('GET', '/backups', { token })).status).toBe(200);
    } finally {
      await restored.server.stop();
    }
  }, 60_000);

  test('a damaged archive is refused before anything is touched', async () => {
    const untouched = fingerprint(fresh);
    // (1) gzip intact, one byte of the database changed: only the sha256 can tell.
    const tar = zlib.gunzipSync(fs.readFileSync(archive));
    const at = tar.indexOf('database/cms.db') + 512 + 4096;
    tar[at] ^= 0xff;
    const tampered = path.join(work, 'tampered.tar.gz');
    fs.writeFileSync(tampered, zlib.gzipSync(tar));
    await expect(restoreBackup(await configIn(fresh), tampered, { now: Date.now(), trustArchive })).rejects.toThrow(
      /database\/cms\.db does not match its sha256.*nothing was changed/,
    );
    // (2) cut short.
    const cut = path.join(work, 'cut.tar.gz');
    const whole = fs.readFileSync(archive);
    fs.writeFileSync(cut, whole.subarray(0, whole.length - 2000));
    await expect(restoreBackup(await configIn(fresh), cut, { now: Date.now(), trustArchive })).rejects.toThrow(
      /not a readable backup.*nothing was changed/,
    );
    expect(fingerprint(fresh)).toEqual(untouched);
  });

  test('a restore is refused while a server holds the database, and moves data aside (never deletes) otherwise', async () => {
    const running = await startTestServer(config, { dir: fresh, engine: 'sqlite' });
    const untouched = fingerprint(fresh);
    try {
      await expect(restoreBackup(await configIn(fresh), archive, { now: Date.now(), trustArchive })).rejects.toThrow(
        /has .*cms\.db open: stop it/,
      );
    } finally {
      await running.server.stop();
    }
    // The server's own writes change its database file; the refused restore added or moved nothing.
    const beside = (print: Record<string, unknown>) =>
      Object.entries(print).filter(([file]) => !/^data\/cms\.db(-wal|-shm)?$/.test(file));
    expect(beside(fingerprint(fresh))).toEqual(beside(untouched));
    const result = await restoreBackup(await configIn(fresh), archive, {
      now: Date.parse('2026-02-03T04:05:06Z'),
      trustArchive,
    });
    expect(result.movedAside).toEqual([
      path.join(fresh, 'data/cms.db.before-restore-20260203T040506.000Z'),
      path.join(fresh, 'data/secret.before-restore-20260203T040506.000Z'),
      path.join(fresh, 'uploads.before-restore-20260203T040506.000Z'),
    ]);
    for (const aside of result.movedAside) expect(fs.existsSync(aside)).toBe(true);
  });
});

describe('cms backup and cms restore on the command line', () => {
  test('backs up beside a running server with a progress line; restore refuses until the server stops', async () => {
    const dir = tempDir('cms-backup-cli-');
    const out = tempDir('cms-backup-out-');
    const configPath = path.join(dir, 'cms.config.json');
    fs.writeFileSync(configPath, JSON.stringify({ database: 'data/cms.db', ...config }));
    const t = await startTestServer(config, { dir, engine: 'sqlite' });
    const cli = (...args: string[]) =>
      spawnSync(
        process.execPath,
        [path.join(import.meta.dir, '../../src/cli/main.ts'), ...args, '--config', configPath],
        {
          encoding: 'utf8',
          env: { ...process.env, NODE_ENV: 'production' },
        },
      );
    try {
      const token = (await t.session('admin')).token;
      expect((await t.request('POST', '/media', { token, body: form(pdf(1000), 'a.pdf') })).status).toBe(201);
      const backup = cli('backup', '--out', out);
      expect(backup.stderr).toBe('');
      expect(backup.stdout).toContain('backup: uploads');
      expect(backup.stdout).toMatch(
        /wrote .*cms-backup-\d{8}T\d{6}\.\d{3}Z\.tar\.gz \(.* MB\): 2 documents, 1 uploads/,
      );
      const file = path.join(out, fs.readdirSync(out).find((n) => n.endsWith('.tar.gz'))!);
      const refused = cli('restore', file);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('stop it, then run cms restore again; nothing was changed');
      await t.server.stop();
      const restore = cli('restore', file);
      expect({ status: restore.status, stderr: restore.stderr }).toEqual({ status: 0, stderr: '' });
      expect(restore.stdout).toContain('restore: verifying checksums');
      expect(restore.stdout).toMatch(/restore: restoring (\d+)\/\1\n/);
      expect(restore.stdout).toContain('moved aside, not deleted');
    } finally {
      for (const d of [dir, out]) fs.rmSync(d, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('S3: uploads read from a bucket, backups kept in a bucket', () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3Server('backup-test');
  });
  afterAll(async () => {
    await s3?.stop();
  });
  const s3Options = (prefix: string) => ({
    type: 's3' as const,
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix,
  });

  test('POST /backups stores the archive in S3 with every S3 upload; it restores into another prefix', async () => {
    const s3Config = { ...config, upload: { storage: s3Options('site') }, backups: { storage: s3Options('backups') } };
    const t = await startTestServer(s3Config, { engine: 'sqlite' });
    const work = tempDir('cms-backup-s3-');
    const fresh = tempDir('cms-restore-s3-');
    try {
      const token = (await t.session('admin')).token;
      const files = [pdf(300_000), await png(30, 30)];
      const docs = [];
      for (const [i, bytes] of files.entries())
        docs.push(
          (await t.request('POST', '/media', { token, body: form(bytes, `f${i}.${i ? 'png' : 'pdf'}`) })).body.doc,
        );
      const made = await t.request('POST', '/backups', { token });
      expect(made.status).toBe(201);
      const listed = await t.request('GET', '/backups', { token });
      expect(listed.body.docs.map((d: { name: string }) => d.name)).toEqual([made.body.doc.name]);
      expect(
        await new Bun.S3Client({
          bucket: s3.bucket,
          endpoint: s3.endpoint,
          accessKeyId: 'S3RVER',
          secretAccessKey: 'S3RVER',
        }).exists(`backups/${made.body.doc.name}`),
      ).toBe(true);
      const archive = await download(t, token, made.body.doc.name, work);
      const manifest = await verifyArchive(archive);
      expect(manifest.counts.uploads).toBe(2);
      expect(
        manifest.entries
          .filter((e) => e.path.startsWith('uploads/'))
          .map((e) => e.path)
          .sort(),
      ).toEqual(docs.map((d) => `uploads/${d.filename}`).sort());
      expect(fs.readdirSync(path.join(t.dir, 'backups'))).toEqual([]); // the staged copy is gone once uploaded

      const restoredConfig = { ...s3Config, upload: { storage: s3Options('restored') } };
      await restoreBackup(await configIn(fresh, restoredConfig), archive, { now: Date.now(), trustArchive });
      const restored = await startTestServer(restoredConfig, { dir: fresh, engine: 'sqlite' });
      try {
        for (const [i, doc] of docs.entries()) {
          const res = await fetch(`${restored.api}/media/file/${doc.filename}`);
          expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(files[i]));
        }
      } finally {
        await restored.server.stop();
      }
    } finally {
      await t.stop();
      for (const d of [work, fresh]) fs.rmSync(d, { recursive: true, force: true });
    }
  }, 30_000);

  test('backups in the very bucket and prefix of the uploads are refused', async () => {
    const dir = tempDir();
    try {
      await expect(
        configIn(dir, { upload: { storage: s3Options('site') }, backups: { storage: s3Options('/site/') } }),
      ).rejects.toThrow(/backups.storage: is the same bucket and prefix/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('schedule and retention', () => {
  test('hourly by cms.clock: the first check sets the time, each hour after writes one, keep 2 leaves the newest two', async () => {
    const t = await startTestServer(
      { ...config, backups: { schedule: 'hourly', keep: 2 } },
      { clockStart: Date.parse('2026-01-01T00:30:00Z') },
    );
    try {
      await runScheduledBackupIfDue(t.cms); // the first check only sets the time
      expect(await runScheduledBackupIfDue(t.cms)).toBeNull();
      const written: string[] = [];
      for (let hour = 1; hour <= 3; hour++) {
        t.clock.set(Date.parse(`2026-01-01T0${hour}:00:30Z`));
        const backup = await runScheduledBackupIfDue(t.cms);
        expect(backup?.name).toBe(`cms-backup-20260101T0${hour}0030.000Z.tar.gz`);
        written.push(backup!.name);
        expect(await runScheduledBackupIfDue(t.cms)).toBeNull(); // the same slot never runs twice
      }
      expect(fs.readdirSync(path.join(t.dir, 'backups')).sort()).toEqual(written.slice(1));
      const setting = await t.cms.store.get<{ value: string }>('SELECT "value" FROM "_cms_settings" WHERE "key" = ?', [
        'backups.lastRunAt',
      ]);
      expect(Number(setting!.value)).toBe(Date.parse('2026-01-01T03:00:30Z'));
    } finally {
      await t.stop();
    }
  });

  test('cron expressions, read in UTC', () => {
    const weekdays = parseCronSchedule('*/15 2 * * 1-5');
    expect(weekdays.matches(Date.parse('2026-01-05T02:45:00Z'))).toBe(true); // a Monday
    expect(weekdays.matches(Date.parse('2026-01-04T02:45:00Z'))).toBe(false); // a Sunday
    expect(weekdays.matches(Date.parse('2026-01-05T02:40:00Z'))).toBe(false);
    const daily = parseCronSchedule('daily');
    expect(fellDueBetween(daily, Date.parse('2026-01-01T23:00:00Z'), Date.parse('2026-01-02T00:01:00Z'))).toBe(true);
    expect(fellDueBetween(daily, Date.parse('2026-01-02T00:00:00Z'), Date.parse('2026-01-02T23:59:00Z'))).toBe(false);
    expect(() => parseCronSchedule('weekly')).toThrow(/five fields/);
    expect(() => parseCronSchedule('61 * * * *')).toThrow(/minute "61" is outside 0–59/);
  });

  test('config refusals name the setting', async () => {
    const dir = tempDir();
    try {
      await expect(configIn(dir, { backups: { dir: 'uploads/backups' } })).rejects.toThrow(
        /backups.dir: .* is inside the uploads folder/,
      );
      await expect(configIn(dir, { upload: { dir: 'files' }, backups: { dir: 'files' } })).rejects.toThrow(
        /inside the uploads folder/,
      );
      await expect(configIn(dir, { backups: { schedule: 'weekly' } })).rejects.toThrow(
        /backups.schedule: "weekly" is not/,
      );
      await expect(configIn(dir, { backups: { keep: 0 } })).rejects.toThrow(/backups.keep/);
      expect((await configIn(dir, { backups: { dir: 'data/backups' } })).backups.dir).toBe(
        path.join(dir, 'data/backups'),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A backup made over HTTP by the table's admin, before the row's request, named for the server's clock. */
async function makeBackup(t: TestServer): Promise<void> {
  const res = await t.request('POST', '/backups', { token: (await t.session('admin')).token });
  expect(res.status).toBe(201);
}

runScenarios(
  'backups over HTTP: admins only',
  config,
  [
    {
      name: 'POST /backups without credentials is a 401',
      method: 'POST',
      url: '/backups',
      status: 401,
      contains: ['"errors"', 'You must be logged in'],
      events: { '*': 0 },
    },
    {
      name: 'an editor may not make one',
      method: 'POST',
      url: '/backups',
      as: 'editor',
      status: 403,
      contains: ['"errors"', 'Only admins may make or read backups.'],
      events: { '*': 0 },
    },
    {
      name: 'an editor may not list them',
      method: 'GET',
      url: '/backups',
      as: 'editor',
      status: 403,
      contains: ['"errors"', 'Only admins may make or read backups.'],
      events: { '*': 0 },
    },
    {
      name: 'an admin makes one: 201 { doc: { name, size, createdAt }, message }',
      method: 'POST',
      url: '/backups',
      as: 'admin',
      status: 201,
      events: { '*': 0 },
      contains: [
        '"name":"cms-backup-20260101T000000.000Z.tar.gz"',
        '"createdAt":"2026-01-01T00:00:00.000Z"',
        '"message":"Backup cms-backup-20260101T000000.000Z.tar.gz written."',
      ],
    },
    {
      name: 'a second one in the same millisecond is a 409',
      method: 'POST',
      url: '/backups',
      as: 'admin',
      // The request lands in the same millisecond as this one.
      setup: makeBackup,
      status: 409,
      contains: ['"message":"cms-backup-20260101T000000.000Z.tar.gz exists already."'],
    },
    {
      name: 'an admin cookie session makes one with the CSRF token',
      method: 'POST',
      url: '/backups',
      as: 'cookie:admin',
      status: 201,
      events: { '*': 0 },
      setup: (t) => t.clock.advance(1000),
      contains: [
        '"doc":{"name":"cms-backup-20260101T000001.000Z.tar.gz"',
        '"message":"Backup cms-backup-20260101T000001.000Z.tar.gz written."',
      ],
    },
    {
      name: 'without the CSRF token a cookie session is refused',
      method: 'POST',
      url: '/backups',
      as: 'cookie:admin',
      headers: { 'x-csrf-token': 'wrong' },
      status: 403,
      contains: ['"errors"', 'Missing or invalid CSRF token.'],
      events: { '*': 0 },
    },
    {
      name: 'the list is newest first, with no backup running',
      method: 'GET',
      url: '/backups',
      as: 'admin',
      setup: async (t) => {
        await makeBackup(t);
        t.clock.advance(1000);
        await makeBackup(t);
      },
      status: 200,
      check: (res) => {
        expect(res.body.docs.map((d: { name: string }) => d.name)).toEqual([
          'cms-backup-20260101T000001.000Z.tar.gz',
          'cms-backup-20260101T000000.000Z.tar.gz',
        ]);
        expect(res.body.running).toBeNull();
      },
    },
    {
      name: 'a name that is not a backup is a 404',
      method: 'GET',
      url: '/backups/..%2Fdata%2Fsecret',
      as: 'admin',
      status: 404,
      contains: ['"errors"', 'No such backup.'],
      events: { '*': 0 },
    },
    {
      name: 'a backup that does not exist is a 404',
      method: 'GET',
      url: '/backups/cms-backup-20990101T000000.000Z.tar.gz',
      as: 'admin',
      status: 404,
      contains: ['"errors"', 'No such backup.'],
      events: { '*': 0 },
    },
    {
      name: 'an editor may not download one',
      method: 'GET',
      url: '/backups/cms-backup-20260101T000000.000Z.tar.gz',
      as: 'editor',
      status: 403,
      contains: ['"errors"', 'Only admins may make or read backups.'],
      events: { '*': 0 },
    },
    {
      name: 'DELETE /backups is a 405',
      method: 'DELETE',
      url: '/backups',
      as: 'admin',
      status: 405,
      contains: ['"errors"', 'Method Not Allowed'],
      events: { '*': 0 },
    },
  ],
  {},
);

test('createBackup --out writes to that folder and leaves retention alone', async () => {
  const t = await startTestServer({ ...config, backups: { keep: 1 } });
  const out = tempDir('cms-backup-out-');
  try {
    for (let i = 0; i < 2; i++) {
      await createBackup(t.cms, { outDir: out });
      t.clock.advance(1);
    }
    expect(fs.readdirSync(out).length).toBe(2);
  } finally {
    await t.stop();
    fs.rmSync(out, { recursive: true, force: true });
  }
});

test('on PostgreSQL the archive holds uploads and the manifest, and says the database is backed up by its own tools', async () => {
  const t = await startTestServer(config, { engine: 'postgres' });
  const out = tempDir('cms-backup-pg-');
  try {
    const { name } = await createBackup(t.cms, { outDir: out });
    const manifest = await verifyArchive(path.join(out, name));
    expect(manifest.database).toBeNull();
    expect(manifest.entries.map((e) => e.path)).not.toContain('database/cms.db');
    expect(JSON.stringify(manifest)).toContain('pg_dump');
  } finally {
    await t.stop();
    fs.rmSync(out, { recursive: true, force: true });
  }
});
