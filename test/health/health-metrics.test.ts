/**
 * `GET /health` and `GET /metrics` (docs/operations.md) on a real server; the metrics text is read by
 * parse-prometheus-text-format (npm), a parser written for Prometheus's format, not by our code.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import { pathWithoutQueryValues } from '../../src/http/observe-request.ts';
import pkg from '../../package.json' with { type: 'json' };
import { form, png } from '../support/media-fixtures.ts';
import { openSSE } from '../support/sse-client.ts';
import { DEFAULT_TEST_ENGINE } from '../harness.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';
import { webhookTiming } from '../../src/webhooks/retry-schedule.ts';

type Family = {
  name: string;
  type: string;
  metrics: {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }[];
};

let t: TestServer;
let admin: Session;
let editor: Session;
const CRON = 'cron-secret-for-metrics';

beforeAll(async () => {
  t = await startTestServer({
    jobs: { secret: CRON },
    collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] }],
  });
  admin = await t.user('admin');
  editor = await t.user('editor');
});
afterAll(() => t.stop());

describe('GET /health', () => {
  test('public: status, version, database; nothing more', async () => {
    const r = await t.request('GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', version: pkg.version, database: 'ok' });
  });

  test('an editor gets the public answer', async () => {
    const r = await t.request('GET', '/health', { token: editor.token });
    expect(Object.keys(r.body).sort()).toEqual(['database', 'status', 'version']);
  });

  test('admins also get the job loop, deliveries, scheduled jobs, storage and uptime', async () => {
    await t.request('POST', '/jobs/run', { token: admin.token });
    t.clock.advance(5_000);
    const r = await t.request('GET', '/health', { token: admin.token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'ok',
      database: 'ok',
      storage: 'local',
      jobs: { lastError: null, scheduledPending: 0 },
      webhooks: { pending: 0, failed: 0 },
    });
    expect(Date.parse(r.body.jobs.lastRunAt)).toBe(t.clock.now() - 5_000);
    expect(r.body.uptime).toBeGreaterThanOrEqual(5);
  });

  test('503 with status error when the database does not answer', async () => {
    const other = await startTestServer({});
    try {
      await other.cms.store.close();
      const r = await other.request('GET', '/health');
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ status: 'error', version: pkg.version, database: 'error' });
    } finally {
      await other.stop().catch(() => {});
    }
  });
});

describe('GET /metrics', () => {
  test('401 without credentials, 403 for an editor or a wrong secret', async () => {
    expect((await t.request('GET', '/metrics')).status).toBe(401);
    expect((await t.request('GET', '/metrics', { token: editor.token })).status).toBe(403);
    expect((await t.request('GET', '/metrics', { token: 'not-the-secret' })).status).toBe(403);
  });

  test('Prometheus text: requests by route and status, latency histogram, job runs, webhook attempts, database size', async () => {
    await t.request('POST', '/posts', { token: admin.token, body: { title: 'one' } });
    await t.request('GET', '/posts/1');
    await t.request('GET', '/posts/1');
    await t.request('GET', '/posts/999');
    await t.request('POST', '/jobs/run', { token: CRON });

    const r = await t.request('GET', '/metrics', { token: CRON });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const families = parsePrometheusTextFormat(r.text) as Family[];
    const byName = new Map(families.map((f) => [f.name, f]));

    const requests = byName.get('cms_http_requests_total')!;
    expect(requests.type).toBe('COUNTER');
    const count = (route: string, status: string, method = 'GET') =>
      Number(
        requests.metrics.find(
          (m) => m.labels?.route === route && m.labels?.status === status && m.labels?.method === method,
        )?.value ?? 0,
      );
    expect(count('/api/cms/:collection/:id', '200')).toBe(2);
    expect(count('/api/cms/:collection/:id', '404')).toBe(1);
    expect(count('/api/cms/:collection', '201', 'POST')).toBe(1);

    const latency = byName.get('cms_http_request_duration_seconds')!;
    expect(latency.type).toBe('HISTOGRAM');
    const histogram = latency.metrics[0]!;
    const answered = requests.metrics.reduce((n, m) => n + Number(m.value), 0);
    expect(Number(histogram.count)).toBe(answered);
    expect(Number(histogram.buckets!['+Inf'])).toBe(answered);
    expect(Number(histogram.sum)).toBeGreaterThan(0);
    const bounds = Object.entries(histogram.buckets!)
      .filter(([b]) => b !== '+Inf')
      .sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(bounds.length).toBeGreaterThan(5);
    // Cumulative: never decreasing.
    const values = bounds.map(([, v]) => Number(v));
    expect(values).toEqual([...values].sort((a, b) => a - b));

    const runs = byName.get('cms_job_runs_total')!;
    expect(Number(runs.metrics.find((m) => m.labels?.outcome === 'ok')!.value)).toBeGreaterThanOrEqual(1);
    expect(
      byName
        .get('cms_webhook_attempts_total')!
        .metrics.map((m) => m.labels?.outcome)
        .sort(),
    ).toEqual(['failed', 'interrupted', 'retry', 'sent']);
    const size = Number(byName.get('cms_database_size_bytes')!.metrics[0]!.value);
    expect(size).toBeGreaterThan(4096);
    expect(byName.get('cms_database_size_bytes')!.type).toBe('GAUGE');
  });

  test('admins may read it too', async () => {
    const r = await t.request('GET', '/metrics', { token: admin.token });
    expect(r.status).toBe(200);
    expect(r.text).toContain('# TYPE cms_http_requests_total counter');
  });
});

describe('what an operator watches', () => {
  let o: TestServer;
  let oAdmin: Session;
  // The delivery's quick retries are real timers (a second, then five): one falling on a scrape held a
  // connection of the pool in it. Without them the delivery waits for the job loop's retry, pending as before.
  const quickRetries = [...webhookTiming.quickRetryDelays];
  afterAll(() => {
    webhookTiming.quickRetryDelays = quickRetries;
  });
  beforeAll(async () => {
    webhookTiming.quickRetryDelays = [];
    o = await startTestServer({
      jobs: { secret: CRON },
      collections: [
        {
          slug: 'posts',
          drafts: true,
          access: { read: () => true },
          fields: [{ name: 'title', type: 'text' }],
        },
        { slug: 'media', access: { read: () => true, create: () => true }, fields: [] },
      ],
      // Nothing listens on these ports: the storage is out of reach, the webhook waits for its retry.
      upload: {
        storage: {
          type: 's3',
          bucket: 'nowhere',
          endpoint: 'http://127.0.0.1:9',
          accessKeyId: 'x',
          secretAccessKey: 'x',
        },
      },
      webhooks: [{ url: 'http://127.0.0.1:9/hook', collections: ['posts'] }],
    });
    oAdmin = await o.user('admin');
  });
  afterAll(() => o.stop());

  const gauges = async () => {
    const r = await o.request('GET', '/metrics', { token: CRON });
    const families = parsePrometheusTextFormat(r.text) as Family[];
    const byName = new Map(families.map((f) => [f.name, f]));
    return { byName, value: (name: string) => Number(byName.get(name)?.metrics[0]?.value ?? Number.NaN) };
  };

  test('open streams, pending jobs and deliveries, pool use, faults by kind, free disk', async () => {
    const before = await gauges();
    expect(before.value('cms_realtime_streams')).toBe(0);
    expect(before.value('cms_scheduled_jobs_pending')).toBe(0);
    expect(before.value('cms_webhook_deliveries_pending')).toBe(0);

    const streams = [await openSSE(`${o.api}/realtime?topics=posts`), await openSSE(`${o.api}/realtime?topics=posts`)];
    const created = await o.request('POST', '/posts', { token: oAdmin.token, body: { title: 'a' } });
    expect(created.status).toBe(201);
    const at = new Date(o.clock.now() + 3_600_000).toISOString();
    for (const action of ['publish', 'unpublish'])
      expect(
        (
          await o.request('POST', `/posts/${created.body.doc.id}/schedule`, {
            token: oAdmin.token,
            body: { action, at: at },
          })
        ).status,
      ).toBeLessThan(300);
    for (let i = 0; i < 2; i++) {
      const res = await o.fetch('/media', { method: 'POST', body: form(await png(4, 4), `f${i}.png`) });
      expect(res.status).toBe(503);
    }

    // The delivery's first attempt (the target refuses at once) is over before the figures are read.
    await flushWebhooks(o.cms);
    const after = await gauges();
    expect(after.value('cms_realtime_streams')).toBe(2);
    expect(after.byName.get('cms_realtime_streams')!.type).toBe('GAUGE');
    expect(after.value('cms_scheduled_jobs_pending')).toBe(2);
    expect(after.value('cms_webhook_deliveries_pending')).toBe(1);
    const faults = after.byName.get('cms_faults_total')!;
    expect(faults.type).toBe('COUNTER');
    expect(Object.fromEntries(faults.metrics.map((m) => [m.labels!.kind, Number(m.value)]))).toEqual({
      disk_full: 0,
      database_unreachable: 0,
      database_busy: 0,
      file_storage_unreachable: 2,
    });
    const free = after.value('cms_data_disk_free_bytes');
    expect(free).toBeGreaterThan(0);
    if (DEFAULT_TEST_ENGINE === 'postgres') {
      expect(after.value('cms_database_connections_max')).toBeGreaterThan(0);
      // The scrape's own statement holds none while the figures are read.
      expect(after.value('cms_database_connections_in_use')).toBe(0);
    } else {
      expect(after.byName.has('cms_database_connections_in_use')).toBe(false);
    }

    for (const s of streams) s.close();
    for (let i = 0; i < 50 && (await gauges()).value('cms_realtime_streams') > 0; i++) await Bun.sleep(20);
    expect((await gauges()).value('cms_realtime_streams')).toBe(0);
  }, 60_000);
});

describe('request log', () => {
  test('the logged path keeps query keys and drops their values', () => {
    expect(pathWithoutQueryValues('http://h:1/api/cms/posts?where[title][like]=secret&limit=5&draft')).toBe(
      '/api/cms/posts?where[title][like]&limit&draft',
    );
    expect(pathWithoutQueryValues('http://h:1/api/cms/posts/1?preview=eyJhbGciOi')).toBe('/api/cms/posts/1?preview');
    expect(pathWithoutQueryValues('http://h:1/')).toBe('/');
  });
});
