// Runs once (on the SQLite pass): replication is SQLite's: `cms` processes on SQLite files of their own.
/**
 * Continuous replication of the SQLite database (docs/replication.md), on real processes: `cms serve` with a
 * replica folder, `kill -9`, the data folder deleted, and `cms replica restore | status | verify` run as
 * the operator would. Engine-free (it always runs SQLite), so it runs once.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Database } from 'bun:sqlite';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { filesIn, form, pdf } from '../support/media-fixtures.ts';
import { startS3Server } from '../support/s3-server.ts';
import { openSSE } from '../support/sse-client.ts';

const main = path.join(import.meta.dir, '../../src/cli/main.ts');
const config = {
  database: 'data/cms.db',
  replica: { url: 'replica' },
  collections: [{ slug: 'notes', fields: [{ name: 'text', type: 'text' }] }],
};
const running: ChildServer[] = [];
const folders: string[] = [];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
afterAll(async () => {
  for (const server of running.splice(0)) if (alive(server.pid)) await server.crash();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

function cli(dir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [main, ...args, '--config', path.join(dir, 'cms.config.json')], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production', CMS_REPLICA_KEY: '' },
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

async function serve(dir?: string, settings: Record<string, unknown> = config): Promise<ChildServer> {
  const server = await startChildServer(settings, dir ? { dir } : {});
  running.push(server);
  folders.push(server.dir);
  return server;
}

async function createNote(server: ChildServer, text: string): Promise<number> {
  const res = await fetch(`${server.api}/notes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { doc: { id: number } }).doc.id;
}

type ReplicaHealth = { mode: string; lagMs: number; lastTransaction: number; lastSnapshotAt: string | null };

async function health(server: ChildServer): Promise<{ status: string; replica: ReplicaHealth }> {
  return (await (await fetch(`${server.api}/health`)).json()) as { status: string; replica: ReplicaHealth };
}

/** Waits until every acknowledged write is on the replica (nothing queued), as /health reports it. */
async function caughtUp(server: ChildServer): Promise<ReplicaHealth> {
  const until = Date.now() + 15_000;
  for (;;) {
    const { replica } = await health(server);
    if (replica.lagMs === 0 && replica.lastSnapshotAt !== null) return replica;
    if (Date.now() > until) throw new Error(`the replica did not catch up: ${JSON.stringify(replica)}`);
    await Bun.sleep(100);
  }
}

function notesIn(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .query<{ text: string }, []>('SELECT "text" FROM "notes" ORDER BY "id"')
      .all()
      .map((r) => r.text);
  } finally {
    db.close();
  }
}

const segmentFiles = (dir: string) => fs.readdirSync(path.join(dir, 'replica/segments')).sort();

describe('an async replica in a folder', () => {
  test('after kill -9 and a deleted data folder, a restore brings back every acknowledged write', async () => {
    const server = await serve();
    const texts = Array.from({ length: 48 }, (_, i) => `note ${i}`);
    // Parallel writers: several requests in flight share group commits.
    for (let i = 0; i < texts.length; i += 8)
      await Promise.all(texts.slice(i, i + 8).map((t) => createNote(server, t)));
    const replica = await caughtUp(server);
    expect(replica.mode).toBe('async');
    // Writes served together share one commit, so there are fewer transactions than writes.
    expect(replica.lastTransaction).toBeGreaterThan(texts.length / 8);
    await server.crash();
    fs.rmSync(path.join(server.dir, 'data'), { recursive: true, force: true });

    const restore = cli(server.dir, 'replica', 'restore');
    expect(restore.err).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.out).toContain(`restored transaction ${replica.lastTransaction}`);
    expect(notesIn(path.join(server.dir, 'data/cms.db')).sort()).toEqual([...texts].sort());

    // The restored instance serves them, and its admin (secret and user restored) logs in.
    const again = await serve(server.dir);
    const list = await fetch(`${again.api}/notes?limit=100`, { headers: { authorization: `Bearer ${again.token}` } });
    expect(((await list.json()) as { totalDocs: number }).totalDocs).toBe(texts.length);
    await again.crash();
  }, 120_000);

  test('status, a restore to a transaction or a moment into another folder, and verify', async () => {
    const server = await serve();
    await createNote(server, 'first');
    const { lastTransaction: afterFirst } = await caughtUp(server);
    await Bun.sleep(20);
    const between = new Date().toISOString();
    await Bun.sleep(20);
    await createNote(server, 'second');
    await caughtUp(server);

    const status = cli(server.dir, 'replica', 'status');
    expect(status.code).toBe(0);
    const shown = JSON.parse(status.out);
    expect(Object.keys(shown).sort()).toEqual(
      [
        'bytes',
        'lagMs',
        'lastTransaction',
        'mode',
        'newestRestorable',
        'oldestRestorable',
        'puts',
        'segments',
        'snapshots',
        'url',
      ].sort(),
    );
    expect(shown).toMatchObject({ mode: 'async', url: 'replica', lagMs: 0, snapshots: 1 });
    expect(shown.segments).toBe(segmentFiles(server.dir).length);
    // Each snapshot goes with its list of uploads (what retention of the uploads reads).
    expect(shown.puts).toBe(shown.segments + 2 * shown.snapshots);
    expect(shown.lastTransaction).toBeGreaterThan(afterFirst);
    expect(Date.parse(shown.newestRestorable)).toBeGreaterThan(Date.parse(between));
    expect(Date.parse(shown.oldestRestorable)).toBeLessThan(Date.parse(between));

    const byTxid = path.join(server.dir, 'by-txid');
    const txidRun = cli(server.dir, 'replica', 'restore', '--txid', String(afterFirst), '--to', byTxid);
    expect(txidRun.code).toBe(0);
    expect(notesIn(path.join(byTxid, 'cms.db'))).toEqual(['first']);

    const byTime = path.join(server.dir, 'by-time');
    expect(cli(server.dir, 'replica', 'restore', '--at', between, '--to', byTime).code).toBe(0);
    expect(notesIn(path.join(byTime, 'cms.db'))).toEqual(['first']);

    const beyond = cli(
      server.dir,
      'replica',
      'restore',
      '--txid',
      String(shown.lastTransaction + 5),
      '--to',
      path.join(server.dir, 'x'),
    );
    expect(beyond.code).not.toBe(0);
    expect(beyond.err).toContain('is not on the replica');
    expect(fs.existsSync(path.join(server.dir, 'x'))).toBe(false);

    const verify = cli(server.dir, 'replica', 'verify');
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.out)).toMatchObject({ ok: true, transaction: shown.lastTransaction });
    await server.crash();
  }, 120_000);

  test('a restore in place is refused while the server runs, and moves the data folder aside once it stopped', async () => {
    const server = await serve();
    await createNote(server, 'kept');
    await caughtUp(server);
    const refused = cli(server.dir, 'replica', 'restore');
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('has');
    expect(refused.err).toContain('open');
    expect(fs.readdirSync(server.dir).filter((f) => f.includes('before-restore'))).toEqual([]);
    await createNote(server, 'still served');
    await caughtUp(server);
    await server.crash();

    const restored = cli(server.dir, 'replica', 'restore');
    expect(restored.code).toBe(0);
    const aside = fs.readdirSync(server.dir).filter((f) => /^data\.before-restore-\d{8}T\d{6}/.test(f));
    expect(aside).toHaveLength(1);
    expect(notesIn(path.join(server.dir, aside[0]!, 'cms.db'))).toEqual(['kept', 'still served']);
    expect(notesIn(path.join(server.dir, 'data/cms.db'))).toEqual(['kept', 'still served']);
  }, 120_000);

  test('a realtime client resuming after a restore to an earlier moment is told to start over and misses nothing after', async () => {
    const server = await serve();
    await createNote(server, 'kept');
    const { lastTransaction: moment } = await caughtUp(server);
    const auth = { authorization: `Bearer ${server.token}` };
    const before = await openSSE(`${server.api}/realtime?topics=notes`, auth);
    for (const text of ['undone 1', 'undone 2', 'undone 3']) await createNote(server, text);
    const seen = await before.waitFor(3);
    before.close();
    const lastEventId = seen.at(-1)!.id!;
    await caughtUp(server);
    await server.crash();
    const restored = cli(server.dir, 'replica', 'restore', '--txid', String(moment));
    expect(restored.err).toBe('');
    expect(notesIn(path.join(server.dir, 'data/cms.db'))).toEqual(['kept']);

    const again = await serve(server.dir);
    const resumed = await openSSE(`${again.api}/realtime?topics=notes`, {
      authorization: `Bearer ${again.token}`,
      'last-event-id': lastEventId,
    });
    for (const text of ['after 1', 'after 2', 'after 3']) await createNote(again, text);
    const events = await resumed.waitFor(4);
    resumed.close();
    expect(events.map((e) => e.event)).toEqual(['reset', 'create', 'create', 'create']);
    expect(events.slice(1).map((e) => e.data.doc.text)).toEqual(['after 1', 'after 2', 'after 3']);
    for (const e of events) expect(Number(e.id)).toBeGreaterThan(Number(lastEventId));
    await again.crash();
  }, 120_000);

  test('a damaged or a missing segment is refused by name and nothing is changed', async () => {
    const server = await serve();
    for (const text of ['a', 'b', 'c']) {
      await createNote(server, text);
      await caughtUp(server);
    }
    await server.crash();
    const segments = segmentFiles(server.dir);
    expect(segments.length).toBeGreaterThanOrEqual(3);
    const before = fs.readdirSync(server.dir).sort();

    const damaged = path.join(server.dir, 'replica/segments', segments[1]!);
    const original = fs.readFileSync(damaged);
    const flipped = Buffer.from(original);
    flipped[flipped.length - 3]! ^= 0xff;
    fs.writeFileSync(damaged, flipped);
    for (const args of [['restore'], ['verify'], ['restore', '--to', path.join(server.dir, 'elsewhere')]]) {
      const run = cli(server.dir, 'replica', ...args);
      expect(run.code).not.toBe(0);
      expect(run.err).toContain(`segments/${segments[1]} is damaged`);
    }
    fs.writeFileSync(damaged, original);

    fs.rmSync(damaged);
    const missing = cli(server.dir, 'replica', 'restore');
    expect(missing.code).not.toBe(0);
    const [from] = segments[1]!.split('-');
    expect(missing.err).toContain(`the replica misses segments/${from}-`);
    expect(fs.readdirSync(server.dir).sort()).toEqual(before);
    expect(notesIn(path.join(server.dir, 'data/cms.db'))).toEqual(['a', 'b', 'c']);
  }, 120_000);

  test('uploads are copied by content, and a restore brings the files of its moment', async () => {
    const server = await serve();
    const upload = async (bytes: Buffer, name: string) => {
      const res = await fetch(`${server.api}/media`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}` },
        body: form(bytes, name),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { doc: { id: number; filename: string } }).doc;
    };
    const first = await upload(pdf(100), 'first.pdf');
    const { lastTransaction: withFirst } = await caughtUp(server);
    const second = await upload(pdf(200), 'second.pdf');
    const removed = await fetch(`${server.api}/media/${first.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(removed.status).toBe(200);
    await caughtUp(server);
    expect(fs.existsSync(path.join(server.dir, 'uploads', first.filename))).toBe(false);
    await server.crash();

    const then = path.join(server.dir, 'then');
    const atFirst = cli(server.dir, 'replica', 'restore', '--txid', String(withFirst), '--to', then);
    expect(atFirst.err).toBe('');
    expect(atFirst.code).toBe(0);
    expect(filesIn(path.join(then, 'uploads'))).toEqual([first.filename]);
    expect(fs.readFileSync(path.join(then, 'uploads', first.filename))).toEqual(pdf(100));

    // The box is gone: data and uploads deleted; the latest state comes back with its files.
    fs.rmSync(path.join(server.dir, 'data'), { recursive: true, force: true });
    fs.rmSync(path.join(server.dir, 'uploads'), { recursive: true, force: true });
    const restore = cli(server.dir, 'replica', 'restore');
    expect(restore.code).toBe(0);
    expect(filesIn(path.join(server.dir, 'uploads'))).toEqual([second.filename]);
    const again = await serve(server.dir);
    const file = await fetch(`${again.api}/media/file/${second.filename}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(pdf(200));
    await again.crash();
  }, 120_000);
});

describe('a sync replica on S3, encrypted', () => {
  test('every acknowledged write survives kill -9; an unreachable replica answers 503, then catches up', async () => {
    const s3 = await startS3Server('replica');
    try {
      const key = 'a long enough replica key for the test';
      const settings = {
        ...config,
        replica: {
          url: `s3://${s3.bucket}/site`,
          mode: 'sync',
          syncTimeout: 1,
          encryptionKey: key,
          s3: { endpoint: s3.endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        },
      };
      const server = await serve(undefined, settings);
      expect((await health(server)).replica.mode).toBe('sync');

      // The replica goes away: a write waits syncTimeout, then is answered 503 with Retry-After; reads go on.
      await s3.pause();
      const refused = await fetch(`${server.api}/notes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'while away' }),
      });
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(
        (await fetch(`${server.api}/notes`, { headers: { authorization: `Bearer ${server.token}` } })).status,
      ).toBe(200);
      await s3.resume();

      const texts = Array.from({ length: 24 }, (_, i) => `plaintext-marker-${i}`);
      for (let i = 0; i < texts.length; i += 8)
        await Promise.all(texts.slice(i, i + 8).map((t) => createNote(server, t)));
      // No waiting for the replica: in sync mode what was acknowledged is on it already.
      await server.crash();
      fs.rmSync(path.join(server.dir, 'data'), { recursive: true, force: true });

      const restore = cli(server.dir, 'replica', 'restore');
      expect(restore.err).toBe('');
      expect(restore.code).toBe(0);
      const restored = notesIn(path.join(server.dir, 'data/cms.db'));
      // The write answered 503 was saved here and reached the replica once it was back.
      expect(restored.sort()).toEqual(['while away', ...texts].sort());

      // Encrypted: no object holds a readable value; a wrong key is refused.
      const objects = filesIn(s3.dir).filter((f) => f.includes('site'));
      expect(objects.length).toBeGreaterThan(2);
      for (const object of objects) {
        const bytes = fs.readFileSync(path.join(s3.dir, object));
        expect(bytes.includes('plaintext-marker')).toBe(false);
        expect(bytes.includes('CREATE TABLE')).toBe(false);
      }
      const configPath = path.join(server.dir, 'cms.config.json');
      const written = JSON.parse(fs.readFileSync(configPath, 'utf8'));
      written.replica.encryptionKey = 'another key, long enough as well';
      fs.writeFileSync(configPath, JSON.stringify(written));
      const wrong = cli(server.dir, 'replica', 'verify');
      expect(wrong.code).not.toBe(0);
      expect(wrong.err).toContain('cannot be decrypted');
    } finally {
      await s3.stop();
    }
  }, 120_000);
});
