/**
 * Bun's idle timeout cuts only a silent client, never a request the server is still working on
 * (src/http/long-requests.ts): with the timeout at one second and hooks that take nine, a read without a
 * body, a JSON create, a bulk update and an upload all get their answers; a client that stops sending its
 * body is still cut, and so is a kept-alive connection left idle after its answer. On PostgreSQL a pool
 * that stays busy answers 503 with Retry-After in bounded time rather than holding the request.
 */
import { describe, expect, test } from 'bun:test';
import net from 'node:net';
import type { UserConfig } from '../../src/config/types.ts';
import { DEFAULT_TEST_ENGINE, startTestServer } from '../harness.ts';
import { serveOverSocket } from '../support/socket-server.ts';
import { POOL_WAIT_MS } from '../../src/db/postgres/pool-gate.ts';
import { form, png } from '../support/media-fixtures.ts';

// Bun checks idle connections every four seconds: a one-second timeout cuts after four to eight.
const SLOW_MS = 9000;
const slowly = async <T>(value: T) => {
  await Bun.sleep(SLOW_MS);
  return value;
};
const config: UserConfig = {
  collections: [
    {
      slug: 'notes',
      access: { read: () => true, create: () => true, update: () => true },
      fields: [{ name: 'title', type: 'text' }],
      hooks: { beforeChange: [({ data }) => slowly(data)] },
    },
    {
      slug: 'pages',
      access: { read: () => true },
      fields: [{ name: 'title', type: 'text' }],
      hooks: { afterRead: [({ doc }) => slowly(doc)] },
    },
    {
      slug: 'media',
      access: { create: () => true, read: () => true },
      fields: [],
      hooks: { beforeChange: [({ data }) => slowly(data)] },
    },
  ],
};

describe('the idle timeout and long requests', () => {
  const served = serveOverSocket(config, { prefix: 'cms-long-', server: { idleTimeout: 1 } });
  const api = served.api;
  const json = { 'content-type': 'application/json' };

  test('a create, a read without a body, a bulk update and an upload, all slower than the timeout, get their answers', async () => {
    await served.cms.store.run('INSERT INTO "pages" ("title", "createdAt", "updatedAt") VALUES (?, ?, ?)', [
      'one',
      1,
      1,
    ]);
    await served.cms.store.run('INSERT INTO "notes" ("title", "createdAt", "updatedAt") VALUES (?, ?, ?)', [
      'bulk',
      1,
      1,
    ]);
    const [created, read, bulk, uploaded] = await Promise.all([
      fetch(`${api()}/notes`, { method: 'POST', headers: json, body: JSON.stringify({ title: 'slow' }) }),
      fetch(`${api()}/pages/1`),
      fetch(`${api()}/notes?where[title][equals]=bulk`, {
        method: 'PATCH',
        headers: json,
        body: JSON.stringify({ title: 'slower' }),
      }),
      png(8, 8).then((bytes) => fetch(`${api()}/media`, { method: 'POST', body: form(bytes, 'slow.png') })),
    ]);
    expect([created.status, read.status, bulk.status, uploaded.status]).toEqual([201, 200, 200, 201]);
    expect(((await created.json()) as { doc: { title: string } }).doc.title).toBe('slow');
    expect(((await bulk.json()) as { docs: { title: string }[] }).docs.map((d) => d.title)).toEqual(['slower']);
  }, 30_000);

  test('a client that stops sending its body is still cut, and so is an idle kept-alive connection', async () => {
    const { port } = new URL(served.server.url);
    const closedAfter = (send: (socket: net.Socket) => void) =>
      new Promise<{ ms: number; data: string }>((resolve) => {
        const started = performance.now();
        let data = '';
        const socket = net.connect(Number(port), '127.0.0.1', () => send(socket));
        socket.on('data', (d) => (data += d));
        socket.on('close', () => resolve({ ms: performance.now() - started, data }));
        setTimeout(() => socket.destroy(), 15_000);
      });
    const silent = await closedAfter((s) =>
      s.write(
        `POST /api/cms/notes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ti`,
      ),
    );
    expect(silent.ms).toBeLessThan(10_000);
    expect(silent.data).not.toContain('201');
    const idle = await closedAfter((s) => s.write(`GET /api/cms/notes?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    expect(idle.data).toStartWith('HTTP/1.1 200');
    expect(idle.ms).toBeLessThan(10_000);
  }, 30_000);
});

describe.skipIf(DEFAULT_TEST_ENGINE !== 'postgres')('a PostgreSQL pool that stays busy', () => {
  test('a request that gets no connection in time is answered 503 with Retry-After, and later ones again 200', async () => {
    const t = await startTestServer({
      databasePool: 2,
      collections: [{ slug: 'notes', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] }],
    });
    try {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const holders = [0, 1].map(() =>
        t.cms.store.transaction(async (tx) => {
          await tx.get('SELECT 1');
          await held;
        }),
      );
      await Bun.sleep(100);
      const started = performance.now();
      const res = await fetch(`${t.api}/notes`);
      const waited = performance.now() - started;
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await res.json()).toEqual({ errors: [{ message: expect.stringContaining('retry') }] });
      expect(waited).toBeLessThan(POOL_WAIT_MS + 2000);
      release();
      await Promise.all(holders);
      expect((await fetch(`${t.api}/notes`)).status).toBe(200);
    } finally {
      await t.stop();
    }
  }, 30_000);
});
