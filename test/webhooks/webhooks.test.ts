/**
 * Outgoing webhooks end to end against real receivers on loopback: which events go where (filters),
 * the exact request (headers, body, signature checked with @octokit/webhooks-methods), hidden fields,
 * every locale, globals, and durability (rows written in the change's transaction).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { verify } from '@octokit/webhooks-methods';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';
import { startReceiver, hang, type Receiver } from '../support/webhook-receiver.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import type { TransactionScope } from '../../src/events/change-events.ts';
import { createCMS } from '../../src/create-cms.ts';
import { startServer } from '../../src/server.ts';
import { manualClock } from '../../src/clock.ts';
import { quietLog } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
const SECRET = 'It’s a Secret to Everybody';

function contentConfig(): UserConfig {
  return {
    localization: { locales: ['en', 'de'], defaultLocale: 'en' },
    collections: [
      {
        slug: 'posts',
        access: open,
        fields: [
          { name: 'title', type: 'text', localized: true },
          { name: 'internalNote', type: 'text', hidden: true },
          {
            name: 'seo',
            type: 'group',
            fields: [
              { name: 'title', type: 'text' },
              { name: 'token', type: 'text', hidden: true },
            ],
          },
          {
            name: 'items',
            type: 'array',
            localized: true,
            fields: [
              { name: 'label', type: 'text' },
              { name: 'cost', type: 'number', hidden: true },
            ],
          },
          { name: 'status', type: 'select', options: ['draft', 'published'] },
        ],
      },
      { slug: 'articles', drafts: true, access: open, fields: [{ name: 'title', type: 'text' }] },
      { slug: 'notes', access: open, fields: [{ name: 'text', type: 'text' }] },
    ],
    globals: [
      {
        slug: 'settings',
        access: { read: () => true, update: () => true },
        fields: [
          { name: 'siteName', type: 'text' },
          { name: 'apiToken', type: 'text', hidden: true },
        ],
      },
      { slug: 'footer', access: { read: () => true, update: () => true }, fields: [{ name: 'text', type: 'text' }] },
    ],
  };
}

describe('webhook events, filters and request shape', () => {
  let t: TestServer;
  const r = {} as Record<'all' | 'publishOnly' | 'none' | 'globalsOnly' | 'signed' | 'notesUnpublish', Receiver>;

  beforeAll(async () => {
    for (const name of ['all', 'publishOnly', 'none', 'globalsOnly', 'signed', 'notesUnpublish'] as const)
      r[name] = startReceiver();
    t = await startTestServer({
      ...contentConfig(),
      webhooks: [
        { url: r.all.url },
        { url: r.publishOnly.url, events: ['publish'], collections: ['posts'] },
        { url: r.none.url, collections: [], globals: [] },
        { url: r.globalsOnly.url, collections: [], globals: ['settings'] },
        {
          url: r.signed.url,
          secret: SECRET,
          headers: { authorization: 'Bearer receiver-token', 'x-team': 'content' },
          events: ['create', 'update'],
          collections: ['posts'],
          globals: [],
        },
        { url: r.notesUnpublish.url, events: ['unpublish', 'delete'], collections: ['notes', 'posts'] },
      ],
    });
  });
  afterAll(async () => {
    await t.stop();
    for (const receiver of Object.values(r)) await receiver.stop();
  });

  /** Requests a receiver got for one collection or global since `from`. */
  const got = (receiver: Receiver, from = 0, slug?: string) =>
    receiver.requests.slice(from).filter((q) => !slug || q.json?.collection === slug || q.json?.global === slug);
  const events = (receiver: Receiver, from = 0, slug?: string) =>
    got(receiver, from, slug)
      .map((q) => q.headers['x-cms-event'])
      .sort();

  async function write(method: string, url: string, body?: unknown) {
    const marks = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.requests.length])) as Record<
      keyof typeof r,
      number
    >;
    const res = await t.request(method, url, body === undefined ? {} : { body });
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
    await flushWebhooks(t.cms);
    return { res, marks };
  }

  test('create with status published sends create + publish; each matching target gets its own delivery', async () => {
    const { marks } = await write('POST', '/posts', {
      title: 'Hello',
      internalNote: 'secret note',
      seo: { title: 'S', token: 't0k' },
      items: [{ label: 'a', cost: 3 }],
      status: 'published',
    });
    expect(events(r.all, marks.all, 'posts')).toEqual(['create', 'publish']);
    expect(events(r.publishOnly, marks.publishOnly)).toEqual(['publish']);
    expect(events(r.signed, marks.signed)).toEqual(['create']);
    expect(events(r.none, marks.none)).toEqual([]);
    expect(events(r.globalsOnly, marks.globalsOnly)).toEqual([]);
    expect(events(r.notesUnpublish, marks.notesUnpublish)).toEqual([]);
    const ids = got(r.all, marks.all, 'posts')
      .map((q) => q.headers['x-cms-delivery'])
      .concat(got(r.publishOnly, marks.publishOnly).map((q) => q.headers['x-cms-delivery']));
    expect(new Set(ids).size).toBe(3);
  });

  test('the request: POST, content-type, x-cms-event, x-cms-delivery, configured headers; body { event, collection, id, doc, timestamp }', async () => {
    const q = got(r.signed).at(-1)!;
    expect(q.method).toBe('POST');
    expect(q.path).toBe('/hook');
    expect(q.headers['content-type']).toBe('application/json');
    expect(q.headers['x-cms-event']).toBe('create');
    expect(q.headers['x-cms-delivery']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(q.headers.authorization).toBe('Bearer receiver-token');
    expect(q.headers['x-team']).toBe('content');
    expect(Object.keys(q.json)).toEqual(['event', 'collection', 'id', 'doc', 'timestamp']);
    expect(q.json).toMatchObject({ event: 'create', collection: 'posts', id: 1 });
    expect(q.json.timestamp).toBe('2026-01-01T00:00:00.000Z');
    expect(q.json.doc).toMatchObject({
      id: 1,
      title: { en: 'Hello' },
      status: 'published',
      seo: { title: 'S' },
      items: { en: [{ label: 'a' }] },
    });
  });

  test('the signature verifies with @octokit/webhooks-methods and is the lowercase hex HMAC of the raw body', async () => {
    const q = got(r.signed).at(-1)!;
    expect(q.headers['x-cms-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify(SECRET, q.body, q.headers['x-cms-signature'])).toBe(true);
    expect(await verify('another secret', q.body, q.headers['x-cms-signature'])).toBe(false);
    expect(await verify(SECRET, q.body.replace('Hello', 'Hellp'), q.headers['x-cms-signature'])).toBe(false);
    // Targets without a secret send no signature header at all.
    expect(got(r.all).every((x) => !('x-cms-signature' in x.headers))).toBe(true);
  });

  test('hidden fields are left out at every level (top, group, localized array rows)', async () => {
    for (const q of [...got(r.all, 0, 'posts'), ...got(r.signed)]) {
      expect(q.body).not.toContain('internalNote');
      expect(q.body).not.toContain('secret note');
      expect(q.body).not.toContain('t0k');
      expect(q.body).not.toContain('cost');
    }
  });

  test('doc carries every locale (locale=all shape), whatever locale the write used', async () => {
    const { marks } = await write('PATCH', '/posts/1?locale=de', { title: 'Hallo' });
    const [q] = got(r.all, marks.all, 'posts');
    expect(q.json.event).toBe('update');
    expect(q.json.doc.title).toEqual({ en: 'Hello', de: 'Hallo' });
    expect(events(r.publishOnly, marks.publishOnly)).toEqual([]);
  });

  test('update that leaves published sends update + unpublish', async () => {
    const { marks } = await write('PATCH', '/posts/1', { status: 'draft' });
    expect(events(r.all, marks.all, 'posts')).toEqual(['unpublish', 'update']);
    expect(events(r.notesUnpublish, marks.notesUnpublish)).toEqual(['unpublish']);
    expect(events(r.signed, marks.signed)).toEqual(['update']);
  });

  test('update that publishes sends update + publish', async () => {
    const { marks } = await write('PATCH', '/posts/1', { status: 'published' });
    expect(events(r.all, marks.all, 'posts')).toEqual(['publish', 'update']);
    expect(events(r.publishOnly, marks.publishOnly)).toEqual(['publish']);
  });

  test('saving only a draft sends draft (and nothing for targets without draft)', async () => {
    const { marks } = await write('POST', '/articles?draft=true', { title: 'Draft only' });
    expect(events(r.all, marks.all, 'articles')).toEqual(['draft']);
    expect(got(r.all, marks.all, 'articles')[0].json).toMatchObject({
      event: 'draft',
      collection: 'articles',
      id: 1,
      doc: { status: 'draft', title: 'Draft only' },
    });
    expect(events(r.publishOnly, marks.publishOnly)).toEqual([]);
    expect(events(r.signed, marks.signed)).toEqual([]);
  });

  test('delete sends delete with the deleted document', async () => {
    const created = await write('POST', '/notes', { text: 'bye' });
    const id = created.res.body.doc.id;
    const { marks } = await write('DELETE', `/notes/${id}`);
    expect(events(r.all, marks.all, 'notes')).toEqual(['delete']);
    const [q] = got(r.notesUnpublish, marks.notesUnpublish);
    expect(q.json).toMatchObject({ event: 'delete', collection: 'notes', id, doc: { id, text: 'bye' } });
  });

  test('globals: body { event, global, doc, timestamp } without collection or id; hidden fields left out; globals filter', async () => {
    const { marks } = await write('POST', '/globals/settings', { siteName: 'Site', apiToken: 'tok-123' });
    const [q] = got(r.globalsOnly, marks.globalsOnly);
    expect(Object.keys(q.json)).toEqual(['event', 'global', 'doc', 'timestamp']);
    expect(q.json).toMatchObject({ event: 'update', global: 'settings', doc: { siteName: 'Site' } });
    expect(q.body).not.toContain('tok-123');
    expect(q.body).not.toContain('apiToken');
    expect(events(r.all, marks.all, 'settings')).toEqual(['update']);
    expect(events(r.signed, marks.signed)).toEqual([]);
    expect(events(r.none, marks.none)).toEqual([]);

    const footer = await write('POST', '/globals/footer', { text: 'F' });
    expect(events(r.globalsOnly, footer.marks.globalsOnly)).toEqual([]);
    expect(events(r.all, footer.marks.all, 'footer')).toEqual(['update']);
  });

  test('a target with collections: [] and globals: [] received nothing at all', () => {
    expect(r.none.requests).toEqual([]);
  });

  test('delivered rows are removed from webhook-deliveries', async () => {
    expect(await t.cms.store.get('SELECT count(*) AS n FROM "webhook-deliveries"')).toEqual({ n: 0 });
  });
});

describe('durability: deliveries are written in the same transaction as the change', () => {
  let t: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = startReceiver(hang);
    t = await startTestServer({ ...contentConfig(), webhooks: [{ url: receiver.url, collections: ['posts'] }] });
  });
  afterAll(async () => {
    await t.stop();
    await receiver.stop();
  });
  const rows = () => t.cms.store.all<any>('SELECT * FROM "webhook-deliveries" ORDER BY "createdAt"');

  test('a rolled-back change leaves no delivery; a committed one has its row, pending, before the first attempt', async () => {
    const event = {
      type: 'create' as const,
      collection: 'posts',
      id: 42,
      doc: { id: 42 },
      previousDoc: null,
      timestamp: new Date(t.clock.now()).toISOString(),
    };
    const inside = (scope: TransactionScope) => scope.tx.all('SELECT * FROM "webhook-deliveries"');
    await expect(
      inTransaction(t.cms.store, t.cms.events, async (scope) => {
        await scope.emit(event);
        expect((await inside(scope)).length).toBe(1); // visible inside the transaction
        expect((await rows()).length).toBe(0); // and to nobody else until it commits
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await rows()).length).toBe(0);
    // The sender starts as soon as the transaction commits, so the row is read where it was written: inside.
    let written: any[] = [];
    await inTransaction(t.cms.store, t.cms.events, async (scope) => {
      await scope.emit(event);
      written = await inside(scope);
    });
    const [row] = written;
    expect(written).toHaveLength(1);
    expect(row).toMatchObject({
      event: 'create',
      collection: 'posts',
      docId: 42,
      url: receiver.url,
      attempts: 0,
      state: 'pending',
      nextAttemptAt: t.clock.now() + 5 * 60_000,
    });
    expect(JSON.parse(row.body)).toEqual({
      event: 'create',
      collection: 'posts',
      id: 42,
      doc: { id: 42 },
      timestamp: event.timestamp,
    });
    await receiver.waitFor(1);
    expect(await rows()).toMatchObject([
      { id: row.id, attempts: 1, state: 'sending', leaseUntil: t.clock.now() + 5 * 60_000 },
    ]);
  });

  test('a write against a hanging receiver answers at once; its delivery waits in the table', async () => {
    const started = performance.now();
    const res = await t.request('POST', '/posts', { body: { title: 'x' } });
    const elapsed = performance.now() - started;
    expect(res.status).toBe(201);
    expect(elapsed).toBeLessThan(500);
    await receiver.waitFor(2);
    expect((await rows()).filter((row) => row.docId === res.body.doc.id)).toHaveLength(1);
  });
});

describe('migration path', () => {
  test('adding webhooks to a config adds the webhook-deliveries table through a migration file; without webhooks there is none', async () => {
    const dir = tempDir();
    const base = { ...contentConfig(), database: path.join(dir, 'data/cms.db') };
    const first = await createCMS({ config: base, rootDir: dir, clock: manualClock(), log: quietLog });
    const hasTable = async (cms: typeof first) =>
      Boolean(await cms.store.get(`SELECT 1 FROM sqlite_master WHERE name = 'webhook-deliveries'`));
    expect(await hasTable(first)).toBe(false);
    await first.close();

    const second = await createCMS({
      config: { ...base, webhooks: [{ url: 'http://127.0.0.1:9/hook' }] },
      rootDir: dir,
      clock: manualClock(),
      log: quietLog,
    });
    expect(await hasTable(second)).toBe(true);
    const files = fs
      .readdirSync(path.join(dir, 'migrations', 'sqlite'))
      .filter((f) => f.endsWith('.sql'))
      .sort();
    expect(files).toHaveLength(2);
    expect(fs.readFileSync(path.join(dir, 'migrations', 'sqlite', files[1]), 'utf8')).toContain(
      'CREATE TABLE `webhook-deliveries`',
    );
    const server = startServer(second, { port: 0 });
    const res = await fetch(`${server.url}/api/cms/webhook-deliveries`);
    expect(res.status).toBe(401);
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('drafts, scheduled publishing and unpublish send their events', () => {
  let t: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = startReceiver();
    t = await startTestServer({ ...contentConfig(), webhooks: [{ url: receiver.url, collections: ['articles'] }] });
  });
  afterAll(async () => {
    await t.stop();
    await receiver.stop();
  });
  const step = async (work: Promise<unknown>) => {
    const from = receiver.requests.length;
    await work;
    await flushWebhooks(t.cms);
    return receiver.requests.slice(from).map((q) => `${q.json.event}:${q.json.doc.status}:${q.json.doc.title}`);
  };

  test('draft saves send draft; the scheduled publish sends update + publish; unpublish sends unpublish', async () => {
    const admin = await t.user('admin');
    const as = { token: admin.token };
    expect(await step(t.request('POST', '/articles?draft=true', { ...as, body: { title: 'a' } }))).toEqual([
      'draft:draft:a',
    ]);
    expect(await step(t.request('PATCH', '/articles/1?draft=true', { ...as, body: { title: 'b' } }))).toEqual([
      'draft:draft:b',
    ]);
    const at = new Date(t.clock.now() + 3_600_000).toISOString();
    expect(await step(t.request('POST', '/articles/1/schedule', { ...as, body: { action: 'publish', at } }))).toEqual(
      [],
    );
    t.clock.advance(3_600_000);
    const { runJobs } = await import('../../src/jobs/run-jobs.ts');
    // Each delivery is sent on its own: no order between them is promised.
    expect((await step(runJobs(t.cms))).sort()).toEqual(['publish:published:b', 'update:published:b']);
    expect(await step(t.request('POST', '/articles/1/unpublish', as))).toEqual(['unpublish:draft:b']);
  });
});
