/** GET /webhook-deliveries and POST /webhook-deliveries/:id/retry (docs/webhooks.md), and the Local API's flushWebhooks/retryWebhooks. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { runScenarios, startTestServer, type TestServer, type Session } from '../harness.ts';
import { answer, startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';
import { webhookTiming } from '../../src/webhooks/retry-schedule.ts';
import { localAPI } from '../../src/local.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
const collections = [{ slug: 'posts', access: open, fields: [{ name: 'title', type: 'text' as const }] }];
const globals = [
  {
    slug: 'settings',
    access: { read: () => true, update: () => true },
    fields: [{ name: 'siteName', type: 'text' as const }],
  },
];

const savedDelays = [...webhookTiming.quickRetryDelays];
beforeAll(() => {
  webhookTiming.quickRetryDelays = [1, 1];
});
afterAll(() => {
  webhookTiming.quickRetryDelays = savedDelays;
});

runScenarios(
  'webhook deliveries without webhooks configured',
  { collections },
  [
    {
      name: 'the list does not exist',
      method: 'GET',
      url: '/webhook-deliveries',
      as: 'admin',
      status: 404,
      contains: ['"errors"', 'Collection \\"webhook-deliveries\\" not found.'],
    },
    {
      name: 'retry does not exist',
      method: 'POST',
      url: '/webhook-deliveries/abc/retry',
      as: 'admin',
      status: 404,
      contains: ['"errors"', '"message":"Not Found"'],
    },
  ],
  {},
);

describe('webhook deliveries API', () => {
  let t: TestServer;
  let gone: Receiver;
  let flaky: Receiver;
  let admin: Session;
  let editor: Session;

  beforeAll(async () => {
    gone = startReceiver(answer(410));
    flaky = startReceiver(answer(500));
    t = await startTestServer({
      collections,
      globals,
      webhooks: [
        { url: gone.url, collections: ['posts'], globals: [] },
        { url: flaky.url, collections: [], events: ['update'] },
      ],
    });
    admin = await t.user('admin');
    editor = await t.user('editor');
    await t.request('POST', '/posts', { body: { title: 'one' }, token: admin.token });
    await t.request('POST', '/globals/settings', { body: { siteName: 'S' }, token: admin.token });
    await flushWebhooks(t.cms);
  });
  afterAll(async () => {
    await t.stop();
    await gone.stop();
    await flaky.stop();
  });

  test('401 without credentials, 403 for a non-admin', async () => {
    expect((await t.request('GET', '/webhook-deliveries')).status).toBe(401);
    expect((await t.request('GET', '/webhook-deliveries', { token: editor.token })).status).toBe(403);
    expect((await t.request('POST', '/webhook-deliveries/x/retry')).status).toBe(401);
    expect((await t.request('POST', '/webhook-deliveries/x/retry', { token: editor.token })).status).toBe(403);
  });

  test('admins get the list shape, newest first, docs shaped { id, event, url, collection | global, docId, state, attempts, lastError, nextAttemptAt, createdAt }', async () => {
    const res = await t.request('GET', '/webhook-deliveries', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      totalDocs: 2,
      limit: 10,
      page: 1,
      totalPages: 1,
      hasNextPage: false,
      hasPrevPage: false,
      nextPage: null,
      prevPage: null,
    });
    const [globalDelivery, postDelivery] = res.body.docs;
    expect(Object.keys(postDelivery)).toEqual([
      'id',
      'event',
      'url',
      'collection',
      'docId',
      'state',
      'attempts',
      'lastError',
      'nextAttemptAt',
      'createdAt',
    ]);
    expect(postDelivery).toEqual({
      id: gone.requests[0].headers['x-cms-delivery'],
      event: 'create',
      url: gone.url,
      collection: 'posts',
      docId: 1,
      state: 'failed',
      attempts: 1,
      lastError: 'HTTP 410',
      nextAttemptAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(Object.keys(globalDelivery)).toEqual([
      'id',
      'event',
      'url',
      'global',
      'docId',
      'state',
      'attempts',
      'lastError',
      'nextAttemptAt',
      'createdAt',
    ]);
    expect(globalDelivery).toMatchObject({
      event: 'update',
      url: flaky.url,
      global: 'settings',
      docId: null,
      state: 'pending',
      attempts: 3,
      lastError: 'HTTP 500',
      nextAttemptAt: '2026-01-01T00:01:00.000Z',
    });
  });

  test('limit and page', async () => {
    const res = await t.request('GET', '/webhook-deliveries?limit=1&page=2', { token: admin.token });
    expect(res.body).toMatchObject({
      totalDocs: 2,
      limit: 1,
      page: 2,
      totalPages: 2,
      hasNextPage: false,
      hasPrevPage: true,
      prevPage: 1,
      nextPage: null,
    });
    expect(res.body.docs).toHaveLength(1);
    expect(res.body.docs[0].event).toBe('create');
    expect((await t.request('GET', '/webhook-deliveries?limit=101', { token: admin.token })).status).toBe(400);
    expect((await t.request('GET', '/webhook-deliveries?page=0', { token: admin.token })).status).toBe(400);
  });

  test("state filters the list (the admin view's filter); an unknown state is a 400 naming it", async () => {
    const failed = await t.request('GET', '/webhook-deliveries?state=failed', { token: admin.token });
    expect(failed.body).toMatchObject({ totalDocs: 1, docs: [{ state: 'failed', event: 'create' }] });
    const pending = await t.request('GET', '/webhook-deliveries?state=pending', { token: admin.token });
    expect(pending.body).toMatchObject({ totalDocs: 1, docs: [{ state: 'pending', event: 'update' }] });
    expect((await t.request('GET', '/webhook-deliveries?state=sending', { token: admin.token })).body.totalDocs).toBe(
      0,
    );
    const bad = await t.request('GET', '/webhook-deliveries?state=done', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'state' });
  });

  test('the list is read-only: other methods are a 405', async () => {
    expect((await t.request('POST', '/webhook-deliveries', { token: admin.token, body: {} })).status).toBe(405);
    expect((await t.request('GET', '/webhook-deliveries/x/retry', { token: admin.token })).status).toBe(405);
  });

  test('retry of an unknown id is a 404', async () => {
    const res = await t.request('POST', '/webhook-deliveries/nope/retry', { token: admin.token });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].message).toBeString();
  });

  test('retry puts a failed delivery back to pending, due now, and sends it again with the same id and bytes', async () => {
    const list = await t.request('GET', '/webhook-deliveries', { token: admin.token });
    const failed = list.body.docs.find((d: any) => d.state === 'failed');
    gone.respondWith(answer(200));
    const res = await t.request('POST', `/webhook-deliveries/${failed.id}/retry`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.doc).toMatchObject({
      id: failed.id,
      state: 'pending',
      attempts: 0,
      nextAttemptAt: new Date(t.clock.now()).toISOString(),
    });
    expect(res.body.message).toBeString();
    await flushWebhooks(t.cms);
    expect(gone.requests).toHaveLength(2);
    expect(gone.requests[1].headers['x-cms-delivery']).toBe(failed.id);
    expect(gone.requests[1].body).toBe(gone.requests[0].body);
    const after = await t.request('GET', '/webhook-deliveries', { token: admin.token });
    expect(after.body.docs.map((d: any) => d.id)).not.toContain(failed.id);
  });

  test('/jobs/run retries due deliveries and reports them', async () => {
    const before = flaky.requests.length;
    await t.request('POST', '/globals/settings', { body: { siteName: 'S2' }, token: admin.token });
    await flushWebhooks(t.cms);
    expect(flaky.requests.length).toBe(before + 3);
    flaky.respondWith(answer(200));
    t.clock.advance(60_000);
    const res = await t.request('POST', '/jobs/run', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jobs: { ran: 0, failed: 0 }, webhooks: { sent: 2, failed: 0, pending: 0 } });
    expect(flaky.requests.length).toBe(before + 5);
    flaky.respondWith(answer(500));
  });

  test('the Local API: retryWebhooks sends what is due; flushWebhooks waits for first attempts', async () => {
    const local = localAPI(t.cms);
    await t.request('POST', '/globals/settings', { body: { siteName: 'S3' }, token: admin.token });
    await local.flushWebhooks();
    flaky.respondWith(answer(200));
    expect(await local.retryWebhooks()).toEqual({ sent: 0, failed: 0, pending: 1 });
    t.clock.advance(60_000);
    expect(await local.retryWebhooks()).toEqual({ sent: 1, failed: 0, pending: 0 });
    expect((await local.runJobs()).webhooks).toEqual({ sent: 0, failed: 0, pending: 0 });
    const before = gone.requests.length;
    await local.create({ collection: 'posts', data: { title: 'local' } });
    await local.flushWebhooks();
    expect(gone.requests).toHaveLength(before + 1);
    expect(gone.requests.at(-1)!.json).toMatchObject({ event: 'create', collection: 'posts', doc: { title: 'local' } });
  });
});
