/**
 * Realtime ids across `cms restore` (docs/realtime.md "After a restore"): a client that reconnects with the
 * `Last-Event-ID` it had before a backup was restored is told to start over (a `reset` event) and gets
 * every change made after, with ids above its own. On the engine of the run, through the real CLI. A bulk
 * load (`cms import DIR`) sends no event per document: open streams get one `reset` instead.
 */
import { expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { UserConfig } from '../../src/config/types.ts';
import { exportContent } from '../../src/content-files/export-content.ts';
import { importContent } from '../../src/content-files/import-content.ts';
import { sharedTestDatabase, startTestServer, tempDir } from '../harness.ts';
import { openSSE } from '../support/sse-client.ts';

const config: UserConfig = {
  collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }], access: { read: () => true } }],
};
const main = path.join(import.meta.dir, '../../src/cli/main.ts');
const cli = (configPath: string, ...args: string[]) =>
  spawnSync(process.execPath, [main, ...args, '--config', configPath], {
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });

test('after cms restore, a client resuming with its Last-Event-ID is told to start over and misses nothing after', async () => {
  const dir = tempDir('cms-realtime-restore-');
  const out = tempDir('cms-realtime-restore-out-');
  const db = await sharedTestDatabase(dir);
  const configPath = path.join(dir, 'cms.config.json');
  fs.writeFileSync(configPath, JSON.stringify({ database: db.database, ...config }));
  try {
    const t = await startTestServer({ database: db.database, ...config }, { dir });
    const { token } = await t.user('admin');
    const post = async (server: typeof t, title: string) =>
      expect((await server.request('POST', '/posts', { token, body: { title } })).status).toBe(201);
    await post(t, 'kept');
    const backup = cli(configPath, 'backup', '--out', out, '--with-database');
    expect({ status: backup.status, stderr: backup.stderr }).toEqual({ status: 0, stderr: '' });
    const archive = path.join(out, fs.readdirSync(out).find((n) => n.endsWith('.tar.gz'))!);

    const before = await openSSE(`${t.api}/realtime?topics=posts`);
    for (const title of ['undone 1', 'undone 2', 'undone 3']) await post(t, title);
    const lastEventId = (await before.waitFor(3)).at(-1)!.id!;
    before.close();
    await t.server.stop();
    await t.cms.close();

    const restore = cli(configPath, 'restore', archive);
    expect({ status: restore.status, stderr: restore.stderr }).toEqual({ status: 0, stderr: '' });
    const again = await startTestServer({ database: db.database, ...config }, { dir });
    try {
      const resumed = await openSSE(`${again.api}/realtime?topics=posts`, { 'last-event-id': lastEventId });
      for (const title of ['after 1', 'after 2', 'after 3']) await post(again, title);
      const events = await resumed.waitFor(4);
      resumed.close();
      expect(events.map((e) => e.event)).toEqual(['reset', 'create', 'create', 'create']);
      expect(events.slice(1).map((e) => e.data.doc.title)).toEqual(['after 1', 'after 2', 'after 3']);
      for (const e of events) expect(Number(e.id)).toBeGreaterThan(Number(lastEventId));
    } finally {
      await again.server.stop();
      await again.cms.close();
    }
  } finally {
    await db.drop();
    for (const d of [dir, out]) fs.rmSync(d, { recursive: true, force: true });
  }
}, 120_000);

test('after a bulk load (cms import DIR), an open stream is told to read afresh, once, after it commits', async () => {
  const t = await startTestServer(config);
  const out = tempDir('cms-realtime-import-');
  try {
    const { token } = await t.user('admin');
    for (const title of ['one', 'two'])
      expect((await t.request('POST', '/posts', { token, body: { title } })).status).toBe(201);
    await exportContent(t.cms, { outDir: out });
    const stream = await openSSE(`${t.api}/realtime?topics=posts`);
    const result = await importContent(t.cms, out);
    expect(result.documents).toEqual({ posts: 2 });
    expect((await t.request('POST', '/posts', { token, body: { title: 'after' } })).status).toBe(201);
    const events = await stream.waitFor(2);
    stream.close();
    expect(events.map((e) => e.event)).toEqual(['reset', 'create']);
    expect(events[0]!.data.reason).toBe('Documents were loaded in bulk: read again what you show.');
    expect(Number(events[1]!.id)).toBeGreaterThan(Number(events[0]!.id));
  } finally {
    await t.stop();
    fs.rmSync(out, { recursive: true, force: true });
  }
}, 60_000);
