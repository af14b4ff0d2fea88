// Runs once (on the SQLite pass): the pure parts of webhooks; no server.
/** The pure parts of webhooks: retry ladder, retryable statuses, target matching, hidden-field stripping, signing, the send limiter. */
import { describe, expect, test } from 'bun:test';
import { sign } from '@octokit/webhooks-methods';
import { isRetryableStatus, MAX_ATTEMPTS, nextRetry, SENDING_LEASE_MS } from '../../src/webhooks/retry-schedule.ts';
import { matchingTargets } from '../../src/webhooks/match-targets.ts';
import { signBody } from '../../src/webhooks/webhook-body.ts';
import { withoutHiddenFields } from '../../src/fields/without-hidden.ts';
import { createSendLimiter } from '../../src/webhooks/send-limiter.ts';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import { requestHeaders } from '../../src/webhooks/send-request.ts';

const s = 1000;
const min = 60 * s;
const h = 60 * min;

describe('retry schedule', () => {
  test('1 s and 5 s in the process, then 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, then none', () => {
    const steps = Array.from({ length: 10 }, (_, i) => nextRetry(i + 1));
    expect(steps).toEqual([
      { delay: 1 * s, quick: true },
      { delay: 5 * s, quick: true },
      { delay: 1 * min, quick: false },
      { delay: 5 * min, quick: false },
      { delay: 30 * min, quick: false },
      { delay: 2 * h, quick: false },
      { delay: 6 * h, quick: false },
      { delay: 12 * h, quick: false },
      null,
      null,
    ]);
    expect(MAX_ATTEMPTS).toBe(9);
    expect(SENDING_LEASE_MS).toBe(5 * min);
    // "About one day after the change": the scheduled waits add up to ~20.6 h.
    const total = steps.filter(Boolean).reduce((sum, step) => sum + step!.delay, 0);
    expect(total / h).toBeGreaterThan(20);
  });

  test('429 and 5xx are retried; other answers are not', () => {
    expect([429, 500, 502, 503, 504, 599].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 410, 422, 301, 302].some(isRetryableStatus)).toBe(false);
  });
});

describe('target matching', () => {
  const targets = [
    { url: 'http://a/' },
    { url: 'http://b/', events: ['publish'] },
    { url: 'http://c/', collections: [] },
    { url: 'http://d/', collections: ['posts'], globals: [] },
    { url: 'http://e/', events: [], collections: ['posts'] },
    { url: 'http://f/', globals: ['settings'], collections: ['pages'] },
  ];
  const urls = (event: Parameters<typeof matchingTargets>[1]) =>
    matchingTargets(targets, event).map((m) => m.target.url);

  test('absent filters mean all, [] means none, each filter narrows', () => {
    expect(urls({ type: 'create', collection: 'posts' })).toEqual(['http://a/', 'http://d/']);
    expect(urls({ type: 'publish', collection: 'posts' })).toEqual(['http://a/', 'http://b/', 'http://d/']);
    expect(urls({ type: 'update', collection: 'pages' })).toEqual(['http://a/', 'http://f/']);
    expect(urls({ type: 'update', global: 'settings' })).toEqual(['http://a/', 'http://c/', 'http://f/']);
    expect(urls({ type: 'update', global: 'footer' })).toEqual(['http://a/', 'http://c/']);
  });

  test('indexes point back into the config list', () => {
    expect(matchingTargets(targets, { type: 'draft', collection: 'posts' }).map((m) => m.index)).toEqual([0, 3]);
  });
});

describe('hidden fields', () => {
  const config = sanitizeConfig(
    {
      localization: { locales: ['en', 'de'], defaultLocale: 'en' },
      collections: [
        {
          slug: 'posts',
          fields: [
            { name: 'title', type: 'text', localized: true },
            { name: 'note', type: 'text', hidden: true, localized: true },
            {
              name: 'meta',
              type: 'group',
              localized: true,
              fields: [
                { name: 'a', type: 'text' },
                { name: 'b', type: 'text', hidden: true },
              ],
            },
            {
              name: 'rows',
              type: 'array',
              fields: [
                { name: 'x', type: 'number' },
                {
                  name: 'inner',
                  type: 'group',
                  fields: [
                    { name: 'y', type: 'text', hidden: true },
                    { name: 'z', type: 'text' },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
    { configPath: null, rootDir: '/tmp' },
  );

  test('are removed at the top, inside groups and array rows, and in every locale of a localized group', () => {
    const doc = {
      id: 1,
      title: { en: 'T', de: 'T2' },
      note: { en: 'n' },
      meta: { en: { a: '1', b: '2' }, de: { a: '3', b: '4' } },
      rows: [
        { x: 1, inner: { y: 'hide', z: 'keep' } },
        { x: 2, inner: null },
      ],
    };
    expect(withoutHiddenFields(config.collectionsBySlug.get('posts')!.fields, doc)).toEqual({
      id: 1,
      title: { en: 'T', de: 'T2' },
      meta: { en: { a: '1' }, de: { a: '3' } },
      rows: [
        { x: 1, inner: { z: 'keep' } },
        { x: 2, inner: null },
      ],
    });
    expect(doc.note).toEqual({ en: 'n' }); // the stored document is not touched
  });
});

describe('signing and headers', () => {
  test('the signature equals @octokit/webhooks-methods sign()', async () => {
    const body = JSON.stringify({ event: 'create', doc: { title: 'Grüße 👋' } });
    expect(signBody('k', body)).toBe(await sign('k', body));
  });

  test('configured headers are sent; the protocol headers cannot be overridden by them', () => {
    const headers = requestHeaders({
      url: 'http://x/',
      deliveryId: 'd1',
      event: 'update',
      body: '{}',
      signature: null,
      headers: { 'X-Api-Key': 'k', 'Content-Type': 'text/plain', 'x-cms-signature': 'forged', 'X-CMS-Event': 'nope' },
    });
    expect(headers).toEqual({
      'x-api-key': 'k',
      'content-type': 'application/json',
      'user-agent': 'cms-webhooks',
      'x-cms-event': 'update',
      'x-cms-delivery': 'd1',
    });
  });
});

describe('send limiter', () => {
  test('never runs more than its bound at once, and runs everything in order', async () => {
    const limiter = createSendLimiter(3);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limiter.run(async () => {
          running++;
          peak = Math.max(peak, running);
          await Bun.sleep(Math.random() * 5);
          order.push(i);
          running--;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(order).toHaveLength(20);
    expect(limiter.active).toBe(0);
    expect(limiter.waiting).toBe(0);
  });
});

describe('one request', () => {
  test('a large answer is not read to the end; an answer body that never ends is cut by the time limit', async () => {
    const { sendWebhookRequest } = await import('../../src/webhooks/send-request.ts');
    const { webhookTiming } = await import('../../src/webhooks/retry-schedule.ts');
    const saved = webhookTiming.timeoutMs;
    // The limit is far above what a loaded machine needs to answer, and an endless body could never be
    // read to the end within it: a 503 (not a timeout) shows the status was taken without reading on.
    webhookTiming.timeoutMs = 1500;
    const chunk = new TextEncoder().encode('x'.repeat(1_000_000));
    const big = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => new Response(new ReadableStream({ pull: (c) => c.enqueue(chunk) }), { status: 503 }),
    });
    const stuck = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('partial')) })),
    });
    try {
      const request = { deliveryId: 'd', event: 'create', body: '{}', signature: null };
      expect(await sendWebhookRequest({ ...request, url: `http://127.0.0.1:${big.port}/` })).toEqual({
        ok: false,
        retry: true,
        error: 'HTTP 503',
        status: 503,
      });
      const started = performance.now();
      expect(await sendWebhookRequest({ ...request, url: `http://127.0.0.1:${stuck.port}/` })).toEqual({
        ok: true,
        status: 200,
      });
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      webhookTiming.timeoutMs = saved;
      big.stop(true);
      stuck.stop(true);
    }
  });
});
