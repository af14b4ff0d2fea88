// Runs once (on the SQLite pass): always on PostgreSQL.
/**
 * How many connections an instance opens on PostgreSQL (docs/postgres.md, "Pool size"): one to start,
 * migrations included, and more only while statements run at once, never more than `databasePool`. Each
 * connection costs the database a backend of its own, so the count is what is checked, on the real cluster.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SQL } from 'bun';
import { startTestServer, type TestServer } from '../harness.ts';
import { adminUrl } from '../support/postgres.ts';

let admin: SQL;
const servers: TestServer[] = [];

beforeAll(() => {
  admin = new SQL(adminUrl(), { max: 1 });
});

afterAll(async () => {
  for (const t of servers) await t.stop();
  await admin.close();
});

/** The backends connected to the server's database now. */
const backends = async (t: TestServer): Promise<number> => {
  const name = new URL(t.database).pathname.slice(1);
  const [row] = await admin.unsafe('SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE datname = $1', [name]);
  return row.n;
};

const start = async (databasePool: number) => {
  const t = await startTestServer(
    { databasePool, collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }] }] },
    { engine: 'postgres', socket: false },
  );
  servers.push(t);
  return t;
};

/** Whether a backend of the server's database is listening, asked until it is or `ms` have passed. */
const listeningWithin = async (t: TestServer, ms: number): Promise<boolean> => {
  const name = new URL(t.database).pathname.slice(1);
  const deadline = performance.now() + ms;
  for (;;) {
    const [row] = await admin.unsafe(
      `SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE datname = $1 AND query ILIKE 'LISTEN%'`,
      [name],
    );
    if (row.n > 0) return true;
    if (performance.now() > deadline) return false;
    await Bun.sleep(20);
  }
};

const sleepingAtOnce = (t: TestServer, n: number) =>
  Promise.all(Array.from({ length: n }, () => t.cms.store.all('SELECT pg_sleep(0.3)')));

describe('connections of one instance on PostgreSQL', () => {
  test('a start, with its migrations under the lock, opens one connection whatever the pool size', async () => {
    const t = await start(10);
    expect(await backends(t)).toBe(1);
    await t.cms.store.withMigrationLock(async () => {
      await t.cms.store.get('SELECT 1 AS "one"');
      await t.cms.store.transaction((tx) => tx.get('SELECT 1 AS "one"'));
    });
    expect(await backends(t)).toBe(1);
  });

  test('statements at once open more, up to the pool size, and the opened ones are kept', async () => {
    const t = await start(3);
    await sleepingAtOnce(t, 2);
    expect(await backends(t)).toBe(2);
    await sleepingAtOnce(t, 5);
    expect(await backends(t)).toBe(3);
    await t.cms.store.get('SELECT 1 AS "one"');
    expect(await backends(t)).toBe(3);
  });

  test('the change listener opens at the second reading of the change counters, not at the first', async () => {
    const t = await start(3);
    await t.cms.store.changeCounters();
    expect(await listeningWithin(t, 500)).toBe(false);
    expect(await backends(t)).toBe(1);
    await t.cms.store.changeCounters();
    expect(await listeningWithin(t, 10_000)).toBe(true);
    expect(await backends(t)).toBe(2);
  });

  test('under the lock, a statement beside an open transaction stays outside it', async () => {
    const t = await start(3);
    const store = t.cms.store;
    await store.exec('CREATE TABLE "probe" ("x" int)');
    const seen = await store.withMigrationLock(() =>
      store.transaction(async (tx) => {
        await tx.run('INSERT INTO "probe" ("x") VALUES (1)');
        return store.get<{ n: number }>('SELECT count(*) AS "n" FROM "probe"');
      }),
    );
    expect(seen).toEqual({ n: 0 });
  });
});
