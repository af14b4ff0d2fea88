/**
 * New documents' index rows wait in a plain table, where the engine keeps one (SQLite), and reach the index
 * many at a time (docs/search.md, "How writes reach the index"): a search still finds every acknowledged
 * write, by every path that reads the index; an update or delete of a document whose rows still wait is
 * seen; the index is written once per batch, not per create; a file whose index predates the table still
 * takes writes; and a crash loses no waiting row. Runs on the engine of the suite's pass (on PostgreSQL rows
 * go straight into the index, and the same answers hold).
 */
import { Database } from 'bun:sqlite';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { DEFAULT_TEST_ENGINE, startTestServer, type TestServer } from '../harness.ts';
import { startChildServer } from '../support/child-server.ts';
import { localAPI } from '../../src/local.ts';
import { PENDING_BATCH } from '../../src/search/pending-rows.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
let t: TestServer;
/** Untyped: the collection comes from the config below. */
let cms: any;
let token: string;

const texts = async (search: string, sort?: string) =>
  (await cms.find({ collection: 'notes', search, sort, limit: 100, depth: 0 })).docs.map((d: any) => d.text).sort();
/** How many rows the engine's own index table holds (SQLite: the FTS5 table). */
const indexed = async () =>
  Number((await t.cms.store.get<{ n: number }>('SELECT count(*) AS "n" FROM "_search_notes"'))!.n);

beforeAll(async () => {
  t = await startTestServer({
    collections: [
      { slug: 'notes', access: open, search: { fields: ['text'] }, fields: [{ name: 'text', type: 'text' }] },
    ],
  });
  cms = localAPI(t.cms);
  token = (await t.user('admin')).token;
});
afterAll(() => t?.stop());

describe('a search right after writes', () => {
  test('finds each create at once: ranked, sorted, and across collections', async () => {
    for (const [i, word] of ['alder', 'aspen', 'acacia'].entries()) {
      await cms.create({ collection: 'notes', data: { text: `${word} ${i}` } });
      expect(await texts(word)).toEqual([`${word} ${i}`]);
      expect(await texts(word, '-createdAt')).toEqual([`${word} ${i}`]);
      const across = await t.request('GET', `/search?q=${word}`, { token });
      expect(across.body.docs.map((d: any) => d.title)).toEqual([`${word} ${i}`]);
    }
  });

  test('sees an update and a delete of documents whose rows were not searched yet', async () => {
    const kept = await cms.create({ collection: 'notes', data: { text: 'rowan first' } });
    const gone = await cms.create({ collection: 'notes', data: { text: 'rowan second' } });
    await cms.update({ collection: 'notes', id: kept.id, data: { text: 'hazel first' } });
    await cms.delete({ collection: 'notes', id: gone.id });
    expect(await texts('rowan')).toEqual([]);
    expect(await texts('hazel')).toEqual(['hazel first']);
    const { totalDocs } = await cms.find({ collection: 'notes', search: 'first', limit: 1, depth: 0 });
    expect(totalDocs).toBe(1);
  });
});

describe.skipIf(DEFAULT_TEST_ENGINE !== 'sqlite')('the FTS5 index', () => {
  test('is not written by each create: a search or a batch moves the waiting rows in', async () => {
    await texts('anything');
    const before = await indexed();
    for (let i = 0; i < 3; i++) await cms.create({ collection: 'notes', data: { text: `larch ${i}` } });
    expect(await indexed()).toBe(before);
    expect(await texts('larch')).toEqual(['larch 0', 'larch 1', 'larch 2']);
    expect(await indexed()).toBe(before + 3);
    for (let i = 0; i < PENDING_BATCH - 1; i++) await cms.create({ collection: 'notes', data: { text: `yew ${i}` } });
    expect(await indexed()).toBe(before + 3);
    await cms.create({ collection: 'notes', data: { text: 'yew last' } });
    expect(await indexed()).toBe(before + 3 + PENDING_BATCH);
    const waiting = await t.cms.store.get<{ n: number }>('SELECT count(*) AS "n" FROM "_pending_search_notes"');
    expect(Number(waiting!.n)).toBe(0);
  });
});

describe.skipIf(DEFAULT_TEST_ENGINE !== 'sqlite')('with a synchronous replica', () => {
  test("a create's rows go straight into the index: no search waits for the replica", async () => {
    const synced = await startTestServer({
      collections: [
        { slug: 'notes', access: open, search: { fields: ['text'] }, fields: [{ name: 'text', type: 'text' }] },
      ],
      replica: { url: 'replica', mode: 'sync' },
    });
    try {
      const count = async () =>
        Number((await synced.cms.store.get<{ n: number }>('SELECT count(*) AS "n" FROM "_search_notes"'))!.n);
      await localAPI(synced.cms).create({ collection: 'notes', data: { text: 'cedar' } });
      expect(await count()).toBe(1);
    } finally {
      await synced.stop();
    }
  });
});

describe.skipIf(DEFAULT_TEST_ENGINE !== 'sqlite')('a file whose index was built before rows waited for it', () => {
  test('a start that leaves the indexes alone still creates, updates and finds', async () => {
    const config = {
      collections: [
        {
          slug: 'notes',
          access: open,
          search: { fields: ['text'] },
          fields: [{ name: 'text', type: 'text' as const }],
        },
      ],
    };
    // In process, closed by hand: the folder stays for the second start.
    const first = await startTestServer(config, { socket: false });
    const dir = first.dir;
    const before: any = localAPI(first.cms);
    await before.create({ collection: 'notes', data: { text: 'maple old' } });
    await before.find({ collection: 'notes', search: 'maple' });
    await first.cms.close();
    const file = new Database(path.join(dir, 'data/cms.db'));
    file.exec('DROP TABLE "_pending_search_notes"');
    file.close();
    const again = await startTestServer(config, { dir, migrate: 'none' });
    try {
      const local: any = localAPI(again.cms);
      const made = await local.create({ collection: 'notes', data: { text: 'maple new' } });
      await local.update({ collection: 'notes', id: made.id, data: { text: 'maple newer' } });
      await local.create({ collection: 'notes', data: { text: 'maple third' } });
      const found = await local.find({ collection: 'notes', search: 'maple', limit: 10, depth: 0 });
      expect(found.docs.map((d: any) => d.text).sort()).toEqual(['maple newer', 'maple old', 'maple third']);
    } finally {
      await again.stop();
    }
  });
});

describe('kill -9 while rows wait for the index', () => {
  test('every acknowledged create is found after the restart', async () => {
    const config = {
      collections: [{ slug: 'notes', search: { fields: ['text'] }, fields: [{ name: 'text', type: 'text' }] }],
    };
    const server = await startChildServer(config);
    const post = (text: string) =>
      fetch(`${server.api}/notes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
        body: JSON.stringify({ text }),
      });
    for (let i = 0; i < 5; i++) expect((await post(`spruce ${i}`)).status).toBe(201);
    await server.crash();
    if (DEFAULT_TEST_ENGINE === 'sqlite') {
      // The crash came while the rows waited: none of them had reached the index.
      const file = new Database(path.join(server.dir, 'data/cms.db'), { readonly: true });
      const waiting = file.query('SELECT count(*) AS n FROM "_pending_search_notes"').get() as { n: number };
      file.close();
      expect(waiting.n).toBe(5);
    }
    const again = await startChildServer(config, { dir: server.dir });
    try {
      const res = await fetch(`${again.api}/notes?search=spruce&limit=10`, {
        headers: { authorization: `Bearer ${again.token}` },
      });
      const body = (await res.json()) as { totalDocs: number; docs: { text: string }[] };
      expect(body.totalDocs).toBe(5);
      expect(body.docs.map((d) => d.text).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `spruce ${i}`));
    } finally {
      await again.stop();
    }
  });
});
