// Runs once (on the SQLite pass): replication is SQLite's: in-process, on a SQLite file of its own.
/**
 * Replication read against the instance's clock (docs/replication.md): `/health` reports the lag and says
 * degraded past 10 s, and retention removes what the window no longer needs, with the test moving time
 * instead of waiting. In-process, on SQLite (replication is SQLite's), so it runs once.
 */
import { afterAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { Database } from 'bun:sqlite';
import { startReplicaFor } from '../../src/cli/replica.ts';
import { loadConfig } from '../../src/config/load.ts';
import { readCatalog } from '../../src/replica/catalog.ts';
import { restoreReplica } from '../../src/replica/restore-replica.ts';
import { replicaOf } from '../../src/replica/running.ts';
import { openTarget } from '../../src/replica/target.ts';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';
import { filesIn, pdf, uploadMedia } from '../support/media-fixtures.ts';
import { startS3Server } from '../support/s3-server.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const t of servers) await t.stop();
});

async function replicated(retentionDays = 30, folder = tempDir('cms-replica-')) {
  const t = await startTestServer(
    {
      replica: { url: folder, retentionDays, snapshotInterval: '1h' },
      collections: [{ slug: 'notes', fields: [{ name: 'text', type: 'text' }] }],
    },
    { engine: 'sqlite' },
  );
  servers.push(t);
  await startReplicaFor(t.cms);
  const replica = replicaOf(t.cms.store)!;
  const { token } = await t.user('admin');
  const note = async (text: string) =>
    expect((await t.request('POST', '/notes', { token, body: { text } })).status).toBe(201);
  return { t, folder, replica, note };
}

test('/health reports the lag by the clock and is degraded past 10 s, until the replica is back', async () => {
  const { t, folder, replica, note } = await replicated();
  await note('one');
  await replica.ship();
  const ok = (await t.request('GET', '/health')).body;
  expect(ok.status).toBe('ok');
  expect(ok.replica).toMatchObject({ mode: 'async', lagMs: 0 });
  expect(Date.parse(ok.replica.lastSnapshotAt)).toBe(t.clock.now());
  const before = ok.replica.lastTransaction;

  // The replica's folder cannot take segments any more.
  const segments = path.join(folder, 'segments');
  fs.renameSync(segments, `${segments}.away`);
  fs.writeFileSync(segments, 'not a folder');
  await note('two');
  await replica.ship();
  t.clock.advance(11_000);
  const behind = await t.request('GET', '/health');
  expect(behind.status).toBe(200);
  expect(behind.body.status).toBe('degraded');
  expect(behind.body.checks.replica).toBe('behind');
  expect(behind.body.replica.lagMs).toBe(11_000);
  expect(behind.body.replica.lastTransaction).toBe(before);
  // The same figures for a scraper, with the failed rounds counted and the oldest moment a restore reaches.
  const { token } = await t.session('admin');
  const metrics = (await t.request('GET', '/metrics', { token })).text;
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1]);
  expect(value('cms_replica_lag_seconds')).toBe(11);
  expect(value('cms_replica_last_transaction')).toBe(before);
  expect(value('cms_replica_failures_total')).toBeGreaterThanOrEqual(1);
  expect(value('cms_replica_objects_written_total')).toBe(replica.puts());
  expect(value('cms_replica_oldest_restorable_timestamp_seconds') * 1000).toBeLessThanOrEqual(t.clock.now());
  expect(value('cms_replica_oldest_restorable_timestamp_seconds')).toBeGreaterThan(0);

  fs.rmSync(segments);
  fs.renameSync(`${segments}.away`, segments);
  await replica.ship();
  const back = (await t.request('GET', '/health')).body;
  expect(back.status).toBe('ok');
  expect(back.replica.lagMs).toBe(0);
  expect(back.replica.lastTransaction).toBeGreaterThan(before);
});

test('retention removes snapshots and segments older than the window, keeping every moment inside it', async () => {
  const { t, folder, replica, note } = await replicated(1);
  await note('old');
  await replica.ship();
  const oldMoment = t.clock.now();
  t.clock.advance(2 * 3_600_000);
  await note('mid');
  await replica.ship(); // a snapshot is due after an hour
  const midMoment = t.clock.now();
  t.clock.advance(2 * 86_400_000);
  await note('new');
  await replica.ship(); // another snapshot, and the first one is now outside the window

  const catalog = await readCatalog(openTarget(t.cms.config.replica!));
  expect(catalog.snapshots.map((s) => s.at)).toEqual([midMoment, t.clock.now()]);
  expect(catalog.segments.every((s) => s.to > catalog.snapshots[0]!.uploadsTxid)).toBe(true);

  const config = await loadConfig({ config: { database: t.database, replica: { url: folder } } });
  await expect(
    restoreReplica(config, { at: oldMoment }, { to: path.join(folder, '..', 'too-old'), now: t.clock.now() }),
  ).rejects.toThrow('holds nothing as old as');
  const kept = path.join(tempDir('cms-replica-kept-'), 'data');
  const restored = await restoreReplica(config, { at: midMoment }, { to: kept, now: t.clock.now() });
  expect(restored.at).toBeLessThanOrEqual(midMoment);
  const db = new Database(path.join(kept, 'cms.db'), { readonly: true });
  expect(db.query('SELECT "text" FROM "notes" ORDER BY "id"').all()).toEqual([{ text: 'old' }, { text: 'mid' }]);
  db.close();
});

test('retention removes the uploads no moment inside the window names, and keeps those it does', async () => {
  const { t, folder, replica, note } = await replicated(1);
  const { token } = await t.session('admin');
  const upload = (bytes: Buffer, name: string) => uploadMedia(t, token, bytes, name);
  const remove = async (id: number) => expect((await t.request('DELETE', `/media/${id}`, { token })).status).toBe(200);
  const objects = () => fs.readdirSync(path.join(folder, 'uploads')).sort();
  const sha = (bytes: Buffer) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex');

  // Stored and removed long before the window: once the snapshot after it leaves the window, nothing names it.
  const gone = await upload(pdf(100), 'gone.pdf');
  await replica.ship();
  await remove(gone.id);
  const kept = await upload(pdf(200), 'kept.pdf');
  await replica.ship();
  expect(objects()).toEqual([sha(pdf(100)), sha(pdf(200))].sort());
  t.clock.advance(2 * 3_600_000);
  await note('a snapshot is due');
  await replica.ship();
  t.clock.advance(36 * 3_600_000);
  await note('another snapshot; the first one is out of the window');
  await replica.ship();
  expect(objects()).toEqual([sha(pdf(200))]);

  // Stored and removed inside the window: a restore to the moment between needs it, so it stays.
  const inside = await upload(pdf(300), 'inside.pdf');
  await replica.ship();
  const insideMoment = t.clock.now();
  t.clock.advance(1000);
  await remove(inside.id);
  await replica.ship();
  t.clock.advance(12 * 3_600_000);
  await note('the next snapshot');
  await replica.ship();
  expect(objects()).toEqual([sha(pdf(200)), sha(pdf(300))].sort());

  const config = await loadConfig({ config: { database: t.database, replica: { url: folder } } });
  const into = path.join(tempDir('cms-replica-uploads-'), 'data');
  await restoreReplica(config, { at: insideMoment }, { to: into, now: t.clock.now() });
  expect(filesIn(path.join(into, 'uploads')).sort()).toEqual([kept.filename, inside.filename].sort());

  // Once that moment leaves the window too, its file goes.
  t.clock.advance(3 * 86_400_000);
  await note('a snapshot three days later');
  await replica.ship();
  expect(objects()).toEqual([sha(pdf(200))]);

  // The same bytes stored again after their object went are copied again.
  await upload(pdf(100), 'back.pdf');
  await replica.ship();
  expect(objects()).toContain(sha(pdf(100)));
});

test('with S3 upload storage, a deleted media document keeps its file for retentionDays', async () => {
  const s3 = await startS3Server('replica-s3-uploads');
  try {
    const folder = tempDir('cms-replica-s3-');
    const storage = {
      type: 's3' as const,
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      prefix: 'media',
    };
    const t = await startTestServer(
      { replica: { url: folder, retentionDays: 1, snapshotInterval: '1h' }, upload: { storage } },
      { engine: 'sqlite' },
    );
    servers.push(t);
    await startReplicaFor(t.cms);
    const replica = replicaOf(t.cms.store)!;
    const { token } = await t.session('admin');
    const client = new Bun.S3Client({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
    const doc = await uploadMedia(t, token, pdf(100), 'kept.pdf');
    const object = client.file(`media/${doc.filename}`);
    await replica.ship();
    const moment = t.clock.now();
    t.clock.advance(1000);
    expect((await t.request('DELETE', `/media/${doc.id}`, { token })).status).toBe(200);
    await replica.ship();
    // The document is gone, its file stays: a restore to the moment before finds it.
    expect(await object.exists()).toBe(true);
    expect(fs.readdirSync(path.join(folder, 'deletes'))).toHaveLength(1);
    const config = await loadConfig({ config: { database: t.database, replica: { url: folder } } });
    const into = path.join(tempDir('cms-replica-s3-restore-'), 'data');
    await restoreReplica(config, { at: moment }, { to: into, now: t.clock.now() });
    const db = new Database(path.join(into, 'cms.db'), { readonly: true });
    expect(db.query('SELECT "filename" FROM "media"').all()).toEqual([{ filename: doc.filename }]);
    db.close();

    // A day later, at the next snapshot, no moment inside the window names it any more.
    t.clock.advance(2 * 86_400_000);
    await replica.ship();
    expect(await object.exists()).toBe(false);
    expect(fs.readdirSync(path.join(folder, 'deletes'))).toEqual([]);
  } finally {
    await s3.stop();
  }
});

test('a restore to a moment before a restart of the server finds the state of that moment', async () => {
  const { t, folder, replica, note } = await replicated();
  await note('before the restart');
  await replica.ship();
  t.clock.advance(1000);
  const moment = t.clock.now();
  t.clock.advance(1000);
  await replica.close();
  await startReplicaFor(t.cms);
  await note('after the restart');
  await replicaOf(t.cms.store)!.ship();

  const config = await loadConfig({ config: { database: t.database, replica: { url: folder } } });
  const into = path.join(tempDir('cms-replica-restart-'), 'data');
  await restoreReplica(config, { at: moment }, { to: into, now: t.clock.now() });
  const db = new Database(path.join(into, 'cms.db'), { readonly: true });
  expect(db.query('SELECT "text" FROM "notes" ORDER BY "id"').all()).toEqual([{ text: 'before the restart' }]);
  db.close();
});

test('a server started while its replica cannot be reached serves, and replicates once it can', async () => {
  const folder = path.join(tempDir('cms-replica-late-'), 'replica');
  fs.writeFileSync(folder, 'a file where the replica folder should be');
  const { t, replica, note } = await replicated(30, folder);
  await note('before the replica');
  t.clock.advance(11_000);
  const behind = (await t.request('GET', '/health')).body;
  expect(behind.status).toBe('degraded');
  expect(behind.replica).toMatchObject({ lagMs: 11_000, lastSnapshotAt: null });

  fs.rmSync(folder);
  fs.mkdirSync(folder);
  await replica.ship();
  await note('after');
  await replica.ship();
  const back = (await t.request('GET', '/health')).body;
  expect(back.status).toBe('ok');
  expect(back.replica.lagMs).toBe(0);

  const config = await loadConfig({ config: { database: t.database, replica: { url: folder } } });
  const into = path.join(tempDir('cms-replica-late-restore-'), 'data');
  await restoreReplica(config, {}, { to: into, now: t.clock.now() });
  const db = new Database(path.join(into, 'cms.db'), { readonly: true });
  expect(db.query('SELECT "text" FROM "notes" ORDER BY "id"').all()).toEqual([
    { text: 'before the replica' },
    { text: 'after' },
  ]);
  db.close();
});

test('the replica setting is checked at start, each mistake named', async () => {
  const refused = async (replica: unknown, message: string) =>
    expect(loadConfig({ config: { replica } as never })).rejects.toThrow(message);
  await refused({ url: 'http://example.com/x' }, 'replica.url: must be s3://bucket/prefix');
  await refused({ url: 's3:///prefix' }, 'replica.url: names no bucket');
  await refused({ url: 'replica', mode: 'eventually' }, "replica.mode: must be 'async' or 'sync'");
  await refused({ url: 'replica', snapshotInterval: 'daily' }, 'replica.snapshotInterval: must be a duration');
  await refused({ url: 'replica', encryptionKey: 'short' }, 'replica.encryptionKey: must be a string of at least 16');
  const config = await loadConfig({
    config: { replica: { url: 's3://bucket/some/prefix/', mode: 'sync', snapshotInterval: '30m' } },
  });
  expect(config.replica).toMatchObject({
    bucket: 'bucket',
    prefix: 'some/prefix',
    folder: null,
    mode: 'sync',
    snapshotIntervalMs: 1_800_000,
    syncTimeoutMs: 5000,
    retentionDays: 30,
  });
});

test('a file:// replica URL names the folder it encodes, spaces and all', async () => {
  const folder = path.join(tempDir('cms-replica-url-'), 'a folder');
  const config = await loadConfig({
    config: { database: path.join(folder, '..', 'cms.db'), replica: { url: Bun.pathToFileURL(folder).href } },
  });
  expect(config.replica?.url).toContain('a%20folder');
  expect(config.replica?.folder).toBe(folder);
});
