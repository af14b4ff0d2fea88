/**
 * Honest answers under real faults (docs/operations.md "Under faults"): the S3 server stopped and started
 * again, PostgreSQL out of reach (its connection cut by a proxy that then refuses, and backends
 * terminated), SQLite held by another process past the busy timeout, and a full disk (a small tmpfs).
 * Each fault is a 503 with Retry-After, or a 507 for the full disk, never a 500 or a 400; /health says
 * what is wrong; the log holds each distinct failure once, not a line per request; and the server answers
 * normally once the fault is gone.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createCMS } from '../../src/create-cms.ts';
import type { CollectionConfig, UserConfig } from '../../src/config/types.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { DEFAULT_TEST_ENGINE, sharedTestDatabase, tempDir } from '../harness.ts';
import { form, png } from '../support/media-fixtures.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { smallDisk } from '../support/small-disk.ts';
import { startS3Server, type S3TestServer } from '../support/s3-server.ts';
import { tcpProxy } from '../support/tcp-proxy.ts';

const notes: CollectionConfig = {
  slug: 'notes',
  access: { read: () => true, create: () => true },
  fields: [{ name: 'title', type: 'text' }],
};
const media: CollectionConfig = { slug: 'media', access: { read: () => true, create: () => true }, fields: [] };

type Served = { server: RunningServer; api: string; logged: string[]; stop(): Promise<void> };

/** The server in this process with a log that keeps its lines. */
async function serve(config: UserConfig, dir: string, database: string, drop = async () => {}): Promise<Served> {
  const logged: string[] = [];
  const keep = (...a: unknown[]) =>
    void logged.push(a.map((x) => (x instanceof Error ? `${x.name}: ${x.message}` : String(x))).join(' '));
  const cms = await createCMS({
    config: { database, ...config },
    rootDir: dir,
    log: { info() {}, warn: keep, error: keep },
  });
  const server = startServer(cms, { port: 0, host: '127.0.0.1', jobLoop: false, logFormat: 'off' });
  return {
    server,
    api: `${server.url}/api/cms`,
    logged,
    async stop() {
      await server.stop();
      await drop();
    },
  };
}

const post = (s: Served, title: string) =>
  fetch(`${s.api}/notes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
const upload = async (s: Served, name: string) =>
  fetch(`${s.api}/media`, { method: 'POST', body: form(await png(4, 4), name) });
const health = async (s: Served) => (await fetch(`${s.api}/health`)).json() as Promise<Record<string, unknown>>;

async function expectFault(res: Response, status: number): Promise<void> {
  const body = (await res.json()) as { errors: { message: string }[] };
  expect({ status: res.status, message: body.errors?.[0]?.message }).toEqual({ status, message: expect.any(String) });
  if (status === 503) expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
}

describe('S3 stopped and started again', () => {
  let s3: S3TestServer;
  let s: Served;
  const dir = tempDir('cms-faults-s3-');
  beforeAll(async () => {
    s3 = await startS3Server('faults');
    const db = await sharedTestDatabase(dir);
    s = await serve(
      {
        collections: [media],
        upload: {
          storage: {
            type: 's3',
            bucket: s3.bucket,
            endpoint: s3.endpoint,
            accessKeyId: 'S3RVER',
            secretAccessKey: 'S3RVER',
          },
        },
      },
      dir,
      db.database,
      db.drop,
    );
  });
  afterAll(async () => {
    await s.stop();
    await s3.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('uploads and downloads answer 503 while it is down, health says so, the log says it once; all well after', async () => {
    const first = await upload(s, 'before.png');
    expect(first.status).toBe(201);
    const { doc } = (await first.json()) as { doc: { filename: string } };
    expect((await health(s)).status).toBe('ok');
    await s3.pause();
    for (let i = 0; i < 5; i++) await expectFault(await upload(s, `during-${i}.png`), 503);
    await expectFault(await fetch(`${s.api}/media/file/${doc.filename}`), 503);
    expect(await health(s)).toMatchObject({ status: 'degraded', database: 'ok', checks: { storage: 'error' } });
    expect(s.logged.filter((line) => line.includes('file storage unreachable'))).toHaveLength(1);
    await s3.resume();
    expect((await upload(s, 'after.png')).status).toBe(201);
    expect((await fetch(`${s.api}/media/file/${doc.filename}`)).status).toBe(200);
    expect((await health(s)).status).toBe('ok');
  }, 60_000);
});

describe.skipIf(DEFAULT_TEST_ENGINE !== 'postgres')('PostgreSQL out of reach', () => {
  test('requests are 503 while the database cannot be reached, /health is 503; all well once it can', async () => {
    const db = await createTestDatabase();
    const url = new URL(db.url);
    const proxy = tcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    const dir = tempDir('cms-faults-pg-');
    // Response cache off: the first list during the cut is computed, so its first look at the tables'
    // triggers (for the count) is made while the database is out of reach.
    const s = await serve({ collections: [notes], cache: false }, dir, url.toString());
    try {
      expect((await post(s, 'before')).status).toBe(201);
      proxy.cut();
      const started = performance.now();
      for (let i = 0; i < 5; i++) await expectFault(await post(s, `during-${i}`), 503);
      await expectFault(await fetch(`${s.api}/notes`), 503);
      expect(performance.now() - started).toBeLessThan(15_000);
      const down = await fetch(`${s.api}/health`);
      expect(down.status).toBe(503);
      expect(s.logged.filter((line) => line.startsWith('database unreachable'))).toHaveLength(1);
      proxy.restore();
      expect((await post(s, 'after')).status).toBe(201);
      expect((await fetch(`${s.api}/health`)).status).toBe(200);
      const listed = await fetch(`${s.api}/notes`);
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { totalDocs: number }).totalDocs).toBe(2);
    } finally {
      proxy.cut();
      await s.stop();
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('backends terminated under it: no 500, and the next requests are answered', async () => {
    const db = await createTestDatabase();
    const dir = tempDir('cms-faults-pg-');
    const s = await serve({ collections: [notes] }, dir, db.url);
    try {
      await Promise.all(Array.from({ length: 8 }, (_, i) => post(s, `warm-${i}`)));
      const admin = new Bun.SQL(db.url, { max: 1 });
      // The server's connections only: an autovacuum worker in the database is the superuser's to stop.
      await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = ${db.name} AND pid <> pg_backend_pid() AND backend_type = 'client backend'`;
      await admin.close();
      const statuses = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => (await post(s, `after-${i}`)).status),
      );
      expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
      expect((await post(s, 'later')).status).toBe(201);
    } finally {
      await s.stop();
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(DEFAULT_TEST_ENGINE !== 'sqlite')('SQLite held by another process past the busy timeout', () => {
  test('a write is answered 503 with Retry-After, and succeeds once the lock is let go', async () => {
    const dir = tempDir('cms-faults-busy-');
    const file = path.join(dir, 'data/cms.db');
    const s = await serve({ collections: [notes] }, dir, file);
    try {
      expect((await post(s, 'before')).status).toBe(201);
      const holder = spawn(
        process.execPath,
        [
          '-e',
          `const { Database } = require('bun:sqlite'); const db = new Database(${JSON.stringify(file)}); db.exec('BEGIN IMMEDIATE'); console.log('held'); setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, 6500);`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise((resolve) => holder.stdout.once('data', resolve));
      await expectFault(await post(s, 'during'), 503);
      await new Promise((resolve) => holder.once('exit', resolve));
      expect((await post(s, 'after')).status).toBe(201);
    } finally {
      await s.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

const disk = smallDisk(16);
afterAll(() => disk?.unmount());

describe.skipIf(!disk)('a full disk (tmpfs)', () => {
  test('an upload and (on SQLite) a create are 507, /health says the disk is full; all well once room is made', async () => {
    const dir = disk!.dir;
    const db = await sharedTestDatabase(dir);
    const s = await serve({ collections: [notes, media] }, dir, db.database, db.drop);
    const filler = path.join(dir, 'filler');
    try {
      expect((await upload(s, 'before.png')).status).toBe(201);
      expect((await post(s, 'before')).status).toBe(201);
      // Everything that is left, taken by one file.
      const free = fs.statfsSync(dir);
      fs.writeFileSync(filler, Buffer.alloc(free.bavail * free.bsize));
      await expectFault(await upload(s, 'full.png'), 507);
      if (DEFAULT_TEST_ENGINE === 'sqlite') {
        // The log may still have room from earlier writes: creates of 60 KB until one needs more.
        let res = await post(s, 'x'.repeat(60_000));
        for (let i = 0; i < 20 && res.status === 201; i++) res = await post(s, 'x'.repeat(60_000));
        await expectFault(res, 507);
      }
      expect(await health(s)).toMatchObject({ status: 'degraded', database: 'ok', checks: { disk: 'full' } });
      fs.rmSync(filler);
      expect((await upload(s, 'after.png')).status).toBe(201);
      expect((await post(s, 'after')).status).toBe(201);
      expect((await health(s)).status).toBe('ok');
    } finally {
      fs.rmSync(filler, { force: true });
      await s.stop();
    }
  }, 60_000);
});
