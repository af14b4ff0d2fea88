/**
 * Failure handling against real receivers: quick retries in the process (with shortened real-time delays),
 * the scheduled ladder walked with the test clock, what is and is not retried, time limit, redirects,
 * bounded concurrency, and shutdown during a send.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';
import { answer, hang, startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';
import { retryDueWebhooks } from '../../src/webhooks/retry-due.ts';
import { webhookTiming, RETRY_DELAYS, MAX_ATTEMPTS } from '../../src/webhooks/retry-schedule.ts';
import { MAX_CONCURRENT_SENDS } from '../../src/webhooks/webhook-runtime.ts';
import type { DeliveryRow } from '../../src/db/deliveries-table.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
const MINUTE = 60_000;
const saved = { ...webhookTiming, quickRetryDelays: [...webhookTiming.quickRetryDelays] };

beforeAll(() => {
  webhookTiming.quickRetryDelays = [100, 500];
});
afterAll(() => {
  Object.assign(webhookTiming, saved);
});

let t: TestServer | null = null;
let receiver: Receiver | null = null;
afterEach(async () => {
  await t?.stop();
  await receiver?.stop();
  t = null;
  receiver = null;
});

async function setup(respond: Parameters<typeof startReceiver>[0], url?: string) {
  receiver = startReceiver(respond);
  t = await startTestServer({
    webhooks: [{ url: url ?? receiver.url, collections: ['posts'], events: ['create'] }],
    collections: [{ slug: 'posts', access: open, fields: [{ name: 'title', type: 'text' }] }],
  });
  return { t, receiver };
}

const rows = (t: TestServer) => t.cms.store.all<DeliveryRow>('SELECT * FROM "webhook-deliveries"');
const createPost = async (t: TestServer, title = 'x') => {
  const res = await t.request('POST', '/posts', { body: { title } });
  expect(res.status).toBe(201);
  return res;
};

describe('webhook retries', () => {
  test('with the real delays, the quick retries come about 1 s and 5 s after the attempt before', async () => {
    webhookTiming.quickRetryDelays = [...saved.quickRetryDelays];
    try {
      const { t, receiver } = await setup(answer(500));
      await createPost(t);
      await flushWebhooks(t.cms);
      const [a, b, c] = receiver.requests;
      expect(receiver.requests).toHaveLength(3);
      expect(b.at - a.at).toBeGreaterThanOrEqual(990);
      expect(b.at - a.at).toBeLessThan(1500);
      expect(c.at - b.at).toBeGreaterThanOrEqual(4990);
      expect(c.at - b.at).toBeLessThan(5500);
    } finally {
      webhookTiming.quickRetryDelays = [100, 500];
    }
  }, 20_000);

  test('a 500 receiver sees the first attempt and the quick retries after ~1 s and ~5 s (scaled), then the row waits 1 min', async () => {
    const { t, receiver } = await setup(answer(500, 'boom'));
    await createPost(t);
    await flushWebhooks(t.cms);
    const seen = receiver.requests;
    expect(seen).toHaveLength(3);
    // Every attempt sends the same bytes, the same delivery id.
    expect(new Set(seen.map((q) => q.body)).size).toBe(1);
    expect(new Set(seen.map((q) => q.headers['x-cms-delivery'])).size).toBe(1);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(95);
    expect(seen[2].at - seen[1].at).toBeGreaterThanOrEqual(495);
    const [row] = await rows(t);
    expect(row).toMatchObject({
      state: 'pending',
      attempts: 3,
      lastError: 'HTTP 500',
      nextAttemptAt: t.clock.now() + MINUTE,
    });
    // Not due yet: the job loop leaves it alone.
    expect(await retryDueWebhooks(t.cms)).toEqual({ sent: 0, failed: 0, pending: 1 });
    expect(receiver.requests).toHaveLength(3);
  });

  test('the full ladder walked with the test clock ends failed with its last error after 9 attempts; then never retried', async () => {
    const { t, receiver } = await setup(answer(503));
    await createPost(t);
    await flushWebhooks(t.cms);
    expect(receiver.requests).toHaveLength(3);
    const scheduled = RETRY_DELAYS.slice(2);
    for (const [i, delay] of scheduled.entries()) {
      const [before] = await rows(t);
      t.clock.advance(delay - 1);
      expect((await retryDueWebhooks(t.cms)).sent).toBe(0); // one millisecond early: not due
      t.clock.advance(1);
      const last = i === scheduled.length - 1;
      expect(await retryDueWebhooks(t.cms)).toEqual({ sent: 0, failed: last ? 1 : 0, pending: last ? 0 : 1 });
      expect(receiver.requests).toHaveLength(4 + i);
      const [after] = await rows(t);
      expect(after.attempts).toBe(before.attempts + 1);
      if (!last)
        expect(after).toMatchObject({
          state: 'pending',
          nextAttemptAt: t.clock.now() + scheduled[i + 1],
          lastError: 'HTTP 503',
        });
    }
    const [row] = await rows(t);
    expect(row).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, lastError: 'HTTP 503', nextAttemptAt: null });
    t.clock.advance(7 * 24 * 60 * MINUTE);
    expect(await retryDueWebhooks(t.cms)).toEqual({ sent: 0, failed: 0, pending: 0 });
    expect(receiver.requests).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(receiver.requests.map((q) => q.body)).size).toBe(1);
  });

  test('a receiver that recovers gets the delivery once, and the row is removed', async () => {
    const { t, receiver } = await setup((_q, i) => new Response(null, { status: i < 3 ? 502 : 204 }));
    await createPost(t);
    await flushWebhooks(t.cms);
    t.clock.advance(MINUTE);
    expect(await retryDueWebhooks(t.cms)).toEqual({ sent: 1, failed: 0, pending: 0 });
    expect(receiver.requests).toHaveLength(4);
    expect(await rows(t)).toEqual([]);
  });

  test('a job-loop run right after a write leaves the first attempt and the quick retries to the writing process', async () => {
    const { t, receiver } = await setup(answer(500));
    await createPost(t);
    expect(await retryDueWebhooks(t.cms)).toMatchObject({ sent: 0, failed: 0 });
    await flushWebhooks(t.cms);
    expect(receiver.requests).toHaveLength(3);
    expect(await rows(t)).toMatchObject([{ state: 'pending', attempts: 3 }]);
  });

  test('when the job loop takes a row during a quick-retry wait, the waiting timer does not send it again', async () => {
    const { t, receiver } = await setup(answer(500));
    await createPost(t);
    await receiver.waitFor(1);
    await Bun.sleep(10);
    t.clock.advance(1000); // the quick retry is due on the clock before the 100 ms timer fires
    expect(await retryDueWebhooks(t.cms)).toEqual({ sent: 0, failed: 0, pending: 1 });
    await flushWebhooks(t.cms);
    expect(receiver.requests).toHaveLength(2);
    expect(await rows(t)).toMatchObject([{ state: 'pending', attempts: 2, nextAttemptAt: t.clock.now() + 5000 }]);
  });

  test('a stored delivery whose target was taken out of the config is failed, not sent', async () => {
    const first = await setup(answer(500));
    await createPost(first.t);
    await flushWebhooks(first.t.cms);
    expect(first.receiver.requests).toHaveLength(3);
    await first.t.server.stop();
    const other = startReceiver();
    t = await startTestServer(
      {
        database: first.t.database,
        webhooks: [{ url: other.url, collections: ['posts'], events: ['create'] }],
        collections: [{ slug: 'posts', access: open, fields: [{ name: 'title', type: 'text' }] }],
      },
      { dir: first.t.dir, clockStart: first.t.clock.now() + MINUTE },
    );
    try {
      expect(await retryDueWebhooks(t.cms)).toEqual({ sent: 0, failed: 1, pending: 0 });
      expect(await rows(t)).toMatchObject([
        { state: 'failed', attempts: 4, lastError: 'the target is no longer in the config' },
      ]);
      expect(first.receiver.requests).toHaveLength(3);
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.stop();
    }
  });

  test('a 410 receiver sees exactly one attempt; the row is failed with the status as its error', async () => {
    const { t, receiver } = await setup(answer(410, 'gone'));
    await createPost(t);
    await flushWebhooks(t.cms);
    t.clock.advance(24 * 60 * MINUTE);
    await retryDueWebhooks(t.cms);
    expect(receiver.requests).toHaveLength(1);
    expect(await rows(t)).toMatchObject([{ state: 'failed', attempts: 1, lastError: 'HTTP 410', nextAttemptAt: null }]);
  });

  test('a failed delivery is logged with the target origin only, and its error holds no path or query', async () => {
    const secretPath = '/hooks/SECRET-SEGMENT-4f9a?token=SECRET-TOKEN-77c1';
    const closed = startReceiver();
    const unreachable = closed.url + secretPath;
    await closed.stop();
    for (const [respond, url] of [
      [answer(410, 'gone'), undefined],
      [answer(200), unreachable],
    ] as const) {
      receiver = startReceiver(respond);
      const target = url ?? receiver.url + secretPath;
      t = await startTestServer({
        webhooks: [{ url: target, collections: ['posts'], events: ['create'] }],
        collections: [{ slug: 'posts', access: open, fields: [{ name: 'title', type: 'text' }] }],
      });
      const logged: string[] = [];
      const keep = (...parts: unknown[]) => void logged.push(parts.map(String).join(' '));
      t.cms.log = { info: keep, warn: keep, error: keep };
      await createPost(t);
      await flushWebhooks(t.cms);
      // The unreachable target walks the ladder to its end; the 410 fails at once.
      for (let i = 0; i < MAX_ATTEMPTS && (await rows(t)).some((r) => r.state === 'pending'); i++) {
        t.clock.advance(24 * 60 * MINUTE);
        await retryDueWebhooks(t.cms);
      }
      const [row] = await rows(t);
      expect(row.state).toBe('failed');
      expect(logged.filter((line) => line.includes('failed'))).toEqual([
        expect.stringContaining(`to ${new URL(target).origin} failed`),
      ]);
      expect(JSON.stringify({ logged, lastError: row.lastError })).not.toContain('SECRET');
      await t.stop();
      await receiver.stop();
      t = null;
      receiver = null;
    }
  });

  test('429 is retried', async () => {
    const { t, receiver } = await setup((_q, i) => new Response(null, { status: i === 0 ? 429 : 200 }));
    await createPost(t);
    await flushWebhooks(t.cms);
    expect(receiver.requests).toHaveLength(2);
    expect(await rows(t)).toEqual([]);
  });

  test('a redirect is not followed and not retried', async () => {
    const { t, receiver } = await setup(
      () => new Response(null, { status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }),
    );
    await createPost(t);
    await flushWebhooks(t.cms);
    expect(receiver.requests).toHaveLength(1);
    expect(await rows(t)).toMatchObject([{ state: 'failed', lastError: 'HTTP 302 (redirects are not followed)' }]);
  });

  test('a network error is retried', async () => {
    const closed = startReceiver();
    const url = closed.url;
    await closed.stop();
    const { t } = await setup(answer(200), url);
    await createPost(t);
    await flushWebhooks(t.cms);
    const [row] = await rows(t);
    expect(row.state).toBe('pending');
    expect(row.attempts).toBe(3);
    expect(row.lastError).toStartWith('network error');
  });

  test('a receiver that does not answer in time is a timeout, retried', async () => {
    const timeout = webhookTiming.timeoutMs;
    webhookTiming.timeoutMs = 150;
    try {
      const { t, receiver } = await setup((_q, i) => (i === 0 ? hang(_q, i) : new Response('ok')));
      await createPost(t);
      await flushWebhooks(t.cms);
      expect(receiver.requests).toHaveLength(2);
      expect(await rows(t)).toEqual([]);
    } finally {
      webhookTiming.timeoutMs = timeout;
    }
  });

  test('the timeout error is stored as such', async () => {
    const timeout = webhookTiming.timeoutMs;
    webhookTiming.timeoutMs = 100;
    try {
      const { t } = await setup(hang);
      await createPost(t);
      await flushWebhooks(t.cms);
      expect(await rows(t)).toMatchObject([{ state: 'pending', attempts: 3, lastError: 'timeout after 0.1 s' }]);
    } finally {
      webhookTiming.timeoutMs = timeout;
    }
  });

  test('a hanging receiver does not slow writes; sends in flight stay bounded; the rest wait their turn', async () => {
    const { t, receiver } = await setup(hang);
    const started = performance.now();
    for (let i = 0; i < 20; i++) await createPost(t, `p${i}`);
    // A write that waited for the receiver would take its timeout; 20 of them far more than this, even on
    // two cores busy with both engines' runs.
    expect(performance.now() - started).toBeLessThan(3000);
    await Bun.sleep(100);
    expect(receiver.requests).toHaveLength(MAX_CONCURRENT_SENDS);
    const states = (await rows(t)).map((r) => r.state);
    expect(states.filter((s) => s === 'sending')).toHaveLength(MAX_CONCURRENT_SENDS);
    expect(states.filter((s) => s === 'pending')).toHaveLength(20 - MAX_CONCURRENT_SENDS);
  });

  test('shutting down mid-send puts the row back to pending, due now, the interrupted attempt not counted', async () => {
    const { t, receiver } = await setup(hang);
    await createPost(t);
    await receiver.waitFor(1);
    let after: DeliveryRow[] = [];
    t.cms.closers.unshift(async () => {
      after = await rows(t);
    });
    const started = performance.now();
    await t.server.stop();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(after).toMatchObject([{ state: 'pending', attempts: 0, nextAttemptAt: t.clock.now() }]);
  });
});
