// Runs once (on the SQLite pass): always on PostgreSQL.
/**
 * The replica on PostgreSQL (docs/replication.md "On PostgreSQL"): the database is the server's to back
 * up, so the replica copies the local uploads only, says so in `/health` and `cms replica status`, and a
 * restore brings back the files of a moment. Always on PostgreSQL, so it runs once.
 */
import { afterAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { startReplicaFor } from '../../src/cli/replica.ts';
import { replicaStatus } from '../../src/replica/replica-status.ts';
import { restoreReplica, verifyReplica } from '../../src/replica/restore-replica.ts';
import { replicaOf } from '../../src/replica/running.ts';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';
import { filesIn, pdf, uploadMedia } from '../support/media-fixtures.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const t of servers) await t.stop();
});

test('on PostgreSQL the replica copies the uploads only, and a restore brings the files of a moment', async () => {
  const folder = tempDir('cms-replica-pg-');
  const t = await startTestServer(
    { replica: { url: folder }, collections: [{ slug: 'notes', fields: [{ name: 'text', type: 'text' }] }] },
    { engine: 'postgres' },
  );
  servers.push(t);
  await startReplicaFor(t.cms);
  const replica = replicaOf(t.cms.store)!;
  expect(replica).not.toBeNull();
  const { token } = await t.session('admin');
  const upload = (bytes: Buffer, name: string) => uploadMedia(t, token, bytes, name);

  const first = await upload(pdf(100), 'first.pdf');
  await replica.ship();
  const moment = t.clock.now();
  t.clock.advance(1000);
  const second = await upload(pdf(200), 'second.pdf');
  expect((await t.request('DELETE', `/media/${first.id}`, { token })).status).toBe(200);
  expect((await t.request('POST', '/notes', { token, body: { text: 'not replicated' } })).status).toBe(201);
  await replica.ship();

  const health = (await t.request('GET', '/health')).body;
  expect(health.status).toBe('ok');
  expect(health.replica).toMatchObject({ mode: 'async', lagMs: 0, uploadsOnly: true });
  const status = await replicaStatus(t.cms.config);
  expect(status).toMatchObject({ uploadsOnly: true, snapshots: 1, lagMs: null });
  // No statement of the database went to the replica: the segments hold the file changes alone.
  expect(status.segments).toBeGreaterThan(0);

  const then = path.join(tempDir('cms-replica-pg-then-'), 'then');
  const restored = await restoreReplica(t.cms.config, { at: moment }, { to: then, now: t.clock.now() });
  expect(restored.file).toBeNull();
  expect(filesIn(path.join(then, 'uploads'))).toEqual([first.filename]);
  expect(fs.readFileSync(path.join(then, 'uploads', first.filename))).toEqual(pdf(100));
  expect((await verifyReplica(t.cms.config)).txid).toBe(status.lastTransaction);

  // In place: the uploads folder is moved aside, and the latest files put in its place.
  await replica.close();
  const uploads = t.cms.config.upload.dir;
  fs.writeFileSync(path.join(uploads, 'stray.txt'), 'not on the replica');
  const latest = await restoreReplica(t.cms.config, {}, { now: t.clock.now() });
  expect(filesIn(uploads)).toEqual([second.filename]);
  expect(latest.movedAside).toHaveLength(1);
  expect(filesIn(latest.movedAside[0]!).sort()).toEqual([second.filename, 'stray.txt'].sort());
}, 120_000);
