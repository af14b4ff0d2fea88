// Runs once (on the SQLite pass): always on PostgreSQL.
/**
 * PostgreSQL: the change counters come from LISTEN/NOTIFY while the listening connection is healthy, so a
 * kept answer is served without a query; a dropped listening connection makes every reading ask again
 * until it is back, so a write made during the gap is never missed (docs/caching.md).
 */
import { describe, expect, test } from 'bun:test';
import { DEFAULT_TEST_ENGINE, startTestServer } from '../harness.ts';
import { tcpProxy } from '../support/tcp-proxy.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { MAX_READING_AGE_MS } from '../../src/db/postgres/kept-counters.ts';

const onPostgres = DEFAULT_TEST_ENGINE === 'postgres' ? describe : describe.skip;

const waitUntil = async (check: () => Promise<boolean> | boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await Bun.sleep(20);
  }
};

onPostgres('change counters over LISTEN/NOTIFY', () => {
  test('kept without a query while listening; fresh after the listening connection dropped and a write came in the gap', async () => {
    const t = await startTestServer({
      collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] }],
    });
    const other = new Bun.SQL(t.database, { max: 1 });
    try {
      await t.cms.store.run('INSERT INTO "posts" ("title", "createdAt", "updatedAt") VALUES (?, ?, ?)', [
        'first',
        'x',
        'x',
      ]);
      const store = t.cms.store;
      // Listening: two readings with nothing committed between them are the same kept object (no query).
      // biome-ignore lint/suspicious/noSelfCompare: two readings, the same object while kept
      await waitUntil(async () => (await store.changeCounters()) === (await store.changeCounters()));
      expect((await t.request('GET', '/posts')).body.docs[0].title).toBe('first');
      expect((await t.request('GET', '/posts')).body.docs[0].title).toBe('first');

      // A write by hand-written SQL on another connection reaches the counters through a notification.
      await other.unsafe(`UPDATE "posts" SET "title" = 'second'`);
      await waitUntil(async () => (await t.request('GET', '/posts')).body.docs[0].title === 'second');

      // Drop the listening connection, then write while it is down.
      const [{ n }] = await other.unsafe(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
      );
      expect(n).toBe(1);
      await Bun.sleep(50);
      await other.unsafe(`UPDATE "posts" SET "title" = 'written in the gap'`);
      expect((await t.request('GET', '/posts')).body.docs[0].title).toBe('written in the gap');

      // Back and listening: kept again, and still fresh.
      // biome-ignore lint/suspicious/noSelfCompare: two readings, the same object while kept
      await waitUntil(async () => (await store.changeCounters()) === (await store.changeCounters()));
      await other.unsafe(`UPDATE "posts" SET "title" = 'after the reconnect'`);
      await waitUntil(async () => (await t.request('GET', '/posts')).body.docs[0].title === 'after the reconnect');
    } finally {
      await other.close();
      await t.stop();
    }
  });

  test("readings asked together right after the instance's own write all see it", async () => {
    const t = await startTestServer({
      collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] }],
    });
    try {
      const store = t.cms.store;
      // biome-ignore lint/suspicious/noSelfCompare: two readings, the same object while kept
      await waitUntil(async () => (await store.changeCounters()) === (await store.changeCounters()));
      const before = (await store.changeCounters()).get('posts') ?? 0;
      await store.run('INSERT INTO "posts" ("title", "createdAt", "updatedAt") VALUES (?, ?, ?)', ['new', 'x', 'x']);
      // The first asks the database; the others, asked before it answers, must wait for it, not take the old kept one.
      const readings = await Promise.all([1, 2, 3, 4].map(() => store.changeCounters()));
      expect(readings.map((r) => (r.get('posts') ?? 0) > before)).toEqual([true, true, true, true]);
    } finally {
      await t.stop();
    }
  });

  test('an anonymous kept read on another instance is stale for the documented bound at most, however late the notification', async () => {
    const config: UserConfig = {
      collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] }],
    };
    const a = await startTestServer(config);
    // B reaches the same database through a link that delivers everything, notifications too, 40 ms late.
    const url = new URL(a.database);
    const proxy = tcpProxy({ host: url.hostname, port: Number(url.port || 5432) }, { delayMs: 40 });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const b = await startTestServer({ ...config, database: url.toString() }, { dir: a.dir });
    try {
      const token = (await a.user('admin')).token;
      const created = await a.request('POST', '/posts', { token, body: { title: 'v0' } });
      const id = created.body.doc.id;
      await waitUntil(async () => (await b.request('GET', `/posts/${id}`)).body.title === 'v0');
      let worst = 0;
      for (let round = 1; round <= 5; round++) {
        // Kept on B first, so that the read after the write is a kept answer or a fresh one.
        await b.request('GET', `/posts/${id}`);
        await b.request('GET', `/posts/${id}`);
        expect((await a.request('PATCH', `/posts/${id}`, { token, body: { title: `v${round}` } })).status).toBe(200);
        const acknowledged = performance.now();
        for (;;) {
          const sent = performance.now();
          const title = (await b.request('GET', `/posts/${id}`)).body.title;
          if (title === `v${round}`) break;
          // Stale: only allowed for a request sent within the bound after the write was acknowledged.
          worst = Math.max(worst, sent - acknowledged);
          if (sent - acknowledged > 1000) break;
        }
      }
      expect(worst).toBeLessThanOrEqual(MAX_READING_AGE_MS);
    } finally {
      await b.stop();
      proxy.cut();
      await a.stop();
    }
  }, 60_000);
});
