/**
 * Realtime over Server-Sent Events (docs/realtime.md): streams open at once, topics and limits, each
 * subscriber's document read under its own access, field access, drafts, locale and depth, replay with
 * Last-Event-ID, heartbeats, shutdown, and writes from every writer (another process on the SQLite file,
 * another instance on PostgreSQL). Runs on the engine of CMS_TEST_ENGINE.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import { DEFAULT_TEST_ENGINE, sharedTestDatabase, startTestServer, tempDir, type TestServer } from '../harness.ts';
import { openSSE, type SSEClient } from '../support/sse-client.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { runJobs } from '../../src/jobs/run-jobs.ts';
import { REPLAY_WINDOW_MS } from '../../src/realtime/change-log.ts';

const config = (): UserConfig => ({
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  realtime: {
    maxConnections: 40,
    maxAnonymousConnections: 40,
    maxConnectionsPerAddress: 100,
    maxTopics: 3,
    heartbeatInterval: 200,
  },
  collections: [
    {
      slug: 'posts',
      drafts: true,
      access: {
        read: ({ user }) => (user ? true : { status: { equals: 'published' } }),
        create: ({ user }) => Boolean(user),
        update: ({ user }) => Boolean(user),
        delete: ({ user }) => Boolean(user),
      },
      fields: [
        { name: 'title', type: 'text', localized: true },
        { name: 'secret', type: 'text', access: { read: ({ user }) => user?.role === 'admin' } },
        { name: 'author', type: 'relationship', relationTo: 'users' },
      ],
    },
    { slug: 'notes', access: { read: ({ user }) => user?.role === 'admin' }, fields: [{ name: 'text', type: 'text' }] },
  ],
  globals: [{ slug: 'settings', access: { read: () => true }, fields: [{ name: 'siteName', type: 'text' }] }],
});

let t: TestServer;
let admin: { token: string; user: Record<string, unknown> };
let editor: { token: string };
const open: SSEClient[] = [];
const subscribe = async (query: string, headers: Record<string, string> = {}) => {
  const client = await openSSE(`${t.api}/realtime?${query}`, headers);
  open.push(client);
  return client;
};
const as = (session: { token: string }) => ({ authorization: `Bearer ${session.token}` });
const create = async (data: Record<string, unknown>, query = '') =>
  (await t.request('POST', `/posts${query}`, { token: admin.token, body: data })).body.doc;
/** Events after this much quiet are surely not coming. */
const settle = () => Bun.sleep(250);

beforeAll(async () => {
  t = await startTestServer(config());
  admin = await t.user('admin');
  editor = await t.user('editor');
});
afterAll(async () => {
  for (const client of open) client.close();
  await t.stop();
});

describe('opening a stream', () => {
  test('answers at once with the stream headers and a retry line, before any event', async () => {
    const s = await subscribe('topics=posts');
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toStartWith('text/event-stream');
    const deadline = Date.now() + 2000;
    while (!s.events.length && Date.now() < deadline) await Bun.sleep(10);
    expect(s.events[0].retry).toBeGreaterThan(0);
  });

  const refusals: { name: string; query: string; status: number; message: string }[] = [
    { name: 'no topics', query: '', status: 400, message: 'topic' },
    { name: 'an unknown collection', query: 'topics=nope', status: 400, message: 'Unknown topic' },
    { name: 'an unknown global', query: 'topics=globals/nope', status: 400, message: 'Unknown topic' },
    { name: 'an id that is not a positive integer', query: 'topics=posts/abc', status: 400, message: 'Unknown topic' },
    { name: 'a path too deep', query: 'topics=posts/1/x', status: 400, message: 'Unknown topic' },
    {
      name: 'more topics than maxTopics',
      query: 'topics=posts,notes,globals/settings,posts/1',
      status: 400,
      message: 'Too many topics',
    },
    { name: 'a huge topic list', query: `topics=${'posts,'.repeat(1500)}`, status: 400, message: 'too long' },
    {
      name: 'a Last-Event-ID that is not an id',
      query: 'topics=posts&lastEventId=abc',
      status: 400,
      message: 'Last-Event-ID',
    },
    { name: 'a depth that is not a number', query: 'topics=posts&depth=x', status: 400, message: 'depth' },
  ];
  for (const r of refusals) {
    test(`refuses ${r.name} with ${r.status}`, async () => {
      const s = await subscribe(r.query);
      expect(s.status).toBe(r.status);
      expect(JSON.stringify(s.body)).toContain(r.message);
    });
  }

  test('an unknown API key is a 401, as for REST reads', async () => {
    const s = await subscribe('topics=posts', { authorization: 'Bearer cms_unknown' });
    expect(s.status).toBe(401);
  });

  test('beyond maxConnections is a 429 with a clear message, and a closed stream frees its place', async () => {
    const before = open.filter((c) => c.status === 200).length;
    const extra: SSEClient[] = [];
    for (let i = before; i < 40; i++) extra.push(await subscribe('topics=notes'));
    const refused = await subscribe('topics=notes');
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].message).toContain('at most 40');
    for (const c of extra) c.close();
    await Bun.sleep(100);
    const again = await subscribe('topics=notes');
    expect(again.status).toBe(200);
    again.close();
  });
});

describe('each subscriber reads as itself', () => {
  test('drafts, access rules, field access, locale and depth per subscriber', async () => {
    const anonymous = await subscribe('topics=posts');
    const adminStream = await subscribe('topics=posts&depth=0', as(admin));
    const editorStream = await subscribe('topics=posts&locale=de', as(editor));
    const drafts = await subscribe('topics=posts&draft=true', as(editor));
    await settle();
    const draftDoc = await create({ title: 'hidden draft', secret: 's1', author: admin.user.id }, '?draft=true');
    // An event carries the document as it is when it is told: the draft's create reaches its readers before
    // the draft is deleted below, however late the machine runs the follower.
    await adminStream.waitFor(1);
    await drafts.waitFor(1);
    const live = await create({ title: 'Hello', secret: 's2', status: 'published', author: admin.user.id });
    await t.request('PATCH', `/posts/${live.id}?locale=de`, { token: admin.token, body: { title: 'Hallo' } });
    await t.request('PATCH', `/posts/${live.id}?draft=true`, { token: admin.token, body: { title: 'Draft title' } });
    await t.request('DELETE', `/posts/${draftDoc.id}`, { token: admin.token });
    await adminStream.waitFor(5);
    await drafts.waitFor(6);
    await settle();

    const summary = (s: SSEClient) => s.data.map((e) => `${e.event} ${e.data.id}`);
    // The anonymous reader sees published documents only: no draft's create, no draft-only save, no delete of a draft.
    expect(summary(anonymous)).toEqual([`create ${live.id}`, `publish ${live.id}`, `update ${live.id}`]);
    expect(anonymous.data[0].data.doc.title).toBe('Hello');
    expect(anonymous.data[0].data.doc).not.toHaveProperty('secret');
    // Admin: everything but the draft-only save; the secret field, relationships as ids (depth=0).
    expect(summary(adminStream)).toEqual([
      `create ${draftDoc.id}`,
      `create ${live.id}`,
      `publish ${live.id}`,
      `update ${live.id}`,
      `delete ${draftDoc.id}`,
    ]);
    expect(adminStream.data[1].data.doc.secret).toBe('s2');
    expect(adminStream.data[1].data.doc.author).toBe(admin.user.id);
    expect(adminStream.data[4].data.doc).toBeNull();
    // An editor in German, at the default depth: the author populated, no secret.
    const editorUpdate = editorStream.data.find((e) => e.event === 'update')!;
    expect(editorUpdate.data.doc.title).toBe('Hallo');
    expect(editorUpdate.data.doc.author.id).toBe(admin.user.id);
    expect(editorUpdate.data.doc).not.toHaveProperty('secret');
    // A draft reader also gets the draft-only save, with the draft's content.
    const draftSave = drafts.data.filter((e) => e.event === 'update').at(-1)!;
    expect(draftSave.data.doc.title).toBe('Draft title');
    expect(draftSave.data).toMatchObject({ topic: 'posts', collection: 'posts', id: live.id });
    // Every event carries an increasing id.
    const ids = adminStream.data.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  test('a collection nobody but admins may read tells others nothing', async () => {
    const editorStream = await subscribe('topics=notes', as(editor));
    const adminStream = await subscribe('topics=notes', as(admin));
    await settle();
    await t.request('POST', '/notes', { token: admin.token, body: { text: 'n' } });
    await adminStream.waitFor(1);
    await settle();
    expect(editorStream.data).toHaveLength(0);
  });

  test('a document topic gets only its document; a global topic gets the global', async () => {
    const a = await create({ title: 'A', status: 'published' });
    const b = await create({ title: 'B', status: 'published' });
    const one = await subscribe(`topics=posts/${a.id},globals/settings`);
    await settle();
    await t.request('PATCH', `/posts/${b.id}`, { token: admin.token, body: { title: 'B2' } });
    await t.request('PATCH', `/posts/${a.id}`, { token: admin.token, body: { title: 'A2' } });
    await t.request('POST', '/globals/settings', { token: admin.token, body: { siteName: 'Site' } });
    const events = await one.waitFor(2);
    await settle();
    expect(one.data).toHaveLength(2);
    expect(events[0].data).toMatchObject({ topic: `posts/${a.id}`, id: a.id, doc: { title: 'A2' } });
    expect(events[1].data).toMatchObject({ topic: 'globals/settings', global: 'settings', doc: { siteName: 'Site' } });
  });

  test('streams reading alike share one read, yet each gets the event once under its own topic', async () => {
    const doc = await create({ title: 'T', secret: 's', status: 'published' });
    const streams = [
      await subscribe('topics=posts', as(admin)),
      await subscribe(`topics=posts/${doc.id}`, as(admin)),
      await subscribe(`topics=posts,posts/${doc.id}`, as(admin)),
      await subscribe('topics=posts', as(admin)),
      await subscribe('topics=posts', as(editor)),
    ];
    await settle();
    await t.request('PATCH', `/posts/${doc.id}`, { token: admin.token, body: { title: 'T2' } });
    for (const s of streams) await s.waitFor(1);
    await settle();
    const topics = streams.map((s) => s.data.map((e) => e.data.topic));
    expect(topics).toEqual([['posts'], [`posts/${doc.id}`], [`posts/${doc.id}`], ['posts'], ['posts']]);
    for (const s of streams.slice(0, 4)) expect(s.data[0].data.doc).toMatchObject({ title: 'T2', secret: 's' });
    // The editor's stream reads as the editor: the field only admins may read stays out.
    expect(streams[4].data[0].data.doc.title).toBe('T2');
    expect(streams[4].data[0].data.doc).not.toHaveProperty('secret');
    for (const s of streams) s.close();
  });

  test("a preview token opens that one document's drafts without login", async () => {
    const doc = await create({ title: 'Live', status: 'published' });
    const preview = await t.request('POST', `/posts/${doc.id}/preview`, { token: admin.token, body: {} });
    const token = new URL(preview.body.url).searchParams.get('preview')!;
    const s = await subscribe(`topics=posts/${doc.id}&preview=${encodeURIComponent(token)}`);
    await settle();
    await t.request('PATCH', `/posts/${doc.id}?draft=true`, { token: admin.token, body: { title: 'Previewed draft' } });
    const [event] = await s.waitFor(1);
    expect(event.data.doc.title).toBe('Previewed draft');
  });
});

describe('delivery', () => {
  test('Last-Event-ID replays what was missed, in order, once', async () => {
    const first = await subscribe('topics=posts', as(admin));
    await settle();
    const doc = await create({ title: 'one', status: 'published' });
    const [seen] = await first.waitFor(1);
    first.close();
    await t.request('PATCH', `/posts/${doc.id}`, { token: admin.token, body: { title: 'two' } });
    await t.request('PATCH', `/posts/${doc.id}`, { token: admin.token, body: { title: 'three' } });
    const again = await subscribe('topics=posts', { ...as(admin), 'last-event-id': seen.id! });
    await again.waitFor(3);
    await t.request('PATCH', `/posts/${doc.id}`, { token: admin.token, body: { title: 'four' } });
    await again.waitFor(4);
    await settle();
    // publish (from the create), two updates, then the live one: nothing twice, nothing out of order.
    expect(again.data.map((e) => e.event)).toEqual(['publish', 'update', 'update', 'update']);
    expect(again.data.map((e) => Number(e.id))).toEqual(again.data.map((e) => Number(e.id)).sort((a, b) => a - b));
    expect(new Set(again.data.map((e) => e.id)).size).toBe(4);
    expect(again.data.at(-1)!.data.doc.title).toBe('four');
  });

  test('replay reaches back five minutes only; the job run prunes older entries', async () => {
    const start = await subscribe('topics=notes', as(admin));
    await settle();
    await t.request('POST', '/notes', { token: admin.token, body: { text: 'old' } });
    const [old] = await start.waitFor(1);
    start.close();
    t.clock.advance(REPLAY_WINDOW_MS + 1000);
    await t.request('POST', '/notes', { token: admin.token, body: { text: 'new' } });
    const before = await t.cms.store.get<{ n: number }>(
      'SELECT CAST(count(*) AS INTEGER) AS "n" FROM "_cms_events" WHERE "id" = ?',
      [Number(old.id)],
    );
    expect(before!.n).toBe(1);
    await runJobs(t.cms);
    const after = await t.cms.store.get<{ n: number }>(
      'SELECT CAST(count(*) AS INTEGER) AS "n" FROM "_cms_events" WHERE "id" = ?',
      [Number(old.id)],
    );
    expect(after!.n).toBe(0);
    const again = await subscribe('topics=notes', { ...as(admin), 'last-event-id': String(Number(old.id) - 1) });
    const events = await again.waitFor(1);
    await settle();
    expect(events.map((e) => e.data.doc.text)).toEqual(['new']);
  });

  test('pruning goes by id: an entry behind one still inside the window waits for it', async () => {
    const base = t.clock.now();
    const note = async (text: string) =>
      (await t.request('POST', '/notes', { token: admin.token, body: { text } })).body.doc.id as number;
    const old = await note('old');
    t.clock.advance(10_000);
    const inside = await note('inside the window');
    t.clock.advance(-20_000); // a clock set back: this entry's time is before the one above
    const behind = await note('behind it');
    const kept = async () =>
      (
        await t.cms.store.all<{ docId: number }>(
          `SELECT "docId" FROM "_cms_events" WHERE "slug" = 'notes' AND "docId" IN (?, ?, ?) ORDER BY "id"`,
          [old, inside, behind],
        )
      ).map((row) => row.docId);
    expect(await kept()).toEqual([old, inside, behind]);
    t.clock.set(base + REPLAY_WINDOW_MS + 5_000);
    await runJobs(t.cms);
    expect(await kept()).toEqual([inside, behind]);
    t.clock.advance(10_000);
    await runJobs(t.cms);
    expect(await kept()).toEqual([]);
  });

  test('a comment line keeps a quiet stream open', async () => {
    const s = await subscribe('topics=notes');
    await Bun.sleep(500);
    expect(s.events.filter((e) => e.comment === 'ping').length).toBeGreaterThanOrEqual(1);
  });

  test("the job loop's scheduled publish reaches subscribers", async () => {
    const doc = await create({ title: 'later' }, '?draft=true');
    const s = await subscribe(`topics=posts/${doc.id}`);
    await settle();
    const at = new Date(t.clock.now() + 60_000).toISOString();
    expect(
      (await t.request('POST', `/posts/${doc.id}/schedule`, { token: admin.token, body: { action: 'publish', at } }))
        .status,
    ).toBe(201);
    t.clock.advance(61_000);
    await runJobs(t.cms);
    // A publish is an update followed by a publish; each event may arrive on its own.
    const events = await s.waitFor(2);
    expect(events.map((e) => e.event)).toEqual(['update', 'publish']);
  });
});

describe('other writers', () => {
  test(
    DEFAULT_TEST_ENGINE === 'sqlite'
      ? 'a Local API script in another process on the same file'
      : 'another instance on the same database',
    async () => {
      const dir = tempDir();
      const db = await sharedTestDatabase(dir);
      const shared = { ...config(), database: db.database };
      const a = await startTestServer(shared, { dir });
      try {
        const sessionA = await a.user('admin');
        const s = await openSSE(`${a.api}/realtime?topics=posts`, as(sessionA));
        open.push(s);
        await settle();
        if (DEFAULT_TEST_ENGINE === 'sqlite') {
          const script = path.join(dir, 'write.ts');
          await Bun.write(
            script,
            `import { getCMS } from ${JSON.stringify(path.resolve('src/local.ts'))};
const cms = await getCMS({ config: { ...${JSON.stringify({
              localization: shared.localization,
              collections: [
                {
                  slug: 'posts',
                  drafts: true,
                  fields: [
                    { name: 'title', type: 'text', localized: true },
                    { name: 'secret', type: 'text' },
                    { name: 'author', type: 'relationship', relationTo: 'users' },
                  ],
                },
                { slug: 'notes', fields: [{ name: 'text', type: 'text' }] },
              ],
              globals: shared.globals?.map((g) => ({ slug: g.slug, fields: g.fields })),
            })}, database: ${JSON.stringify(db.database)} } });
await cms.create({ collection: 'posts', data: { title: 'from another process', status: 'published' } });
await cms.close();`,
          );
          const child = Bun.spawn(['bun', script], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
          expect(await child.exited).toBe(0);
        } else {
          const b = await startTestServer(shared, { dir });
          try {
            const sessionB = await b.user('admin');
            await b.request('POST', '/posts', {
              token: sessionB.token,
              body: { title: 'from another instance', status: 'published' },
            });
          } finally {
            await b.server.stop();
          }
        }
        const events = await s.waitFor(2);
        expect(events[0].data.doc.title).toMatch(/^from another/);
        expect(events.map((e) => e.event)).toEqual(['create', 'publish']);
      } finally {
        await a.server.stop();
        await db.drop();
      }
    },
  );

  test('shutting down ends every stream with a retry hint', async () => {
    const dir = tempDir();
    const other = await startTestServer(config(), { dir });
    const s = await openSSE(`${other.api}/realtime?topics=notes`);
    await settle();
    const stopped = other.stop();
    await s.ended;
    await stopped;
    expect(s.events.at(-1)!.retry).toBeGreaterThan(0);
    expect(s.events.at(-1)!.comment).toContain('reconnect');
  });
});
