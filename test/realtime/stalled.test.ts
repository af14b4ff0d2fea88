/**
 * Clients that open realtime streams and never read (docs/realtime.md, "Slow and stalled clients"):
 * while an editor saves documents with large bodies, what the server holds for them stays bounded by
 * `realtime.maxBufferBytes` per stream, and the server closes their sockets itself (the client sees the
 * connection end; its descriptor is released). The server runs in its own process (`cms serve`), so its
 * memory and open descriptors are measured from outside. Runs on the engine of CMS_TEST_ENGINE.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import type net from 'node:net';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { openStalledStream } from '../support/sse-client.ts';

const STALLED = 60;
const WAVES = 3;
const SAVES = 25;
const BODY_CHARS = 400_000;
const MAX_BUFFER = 200_000;

let server: ChildServer;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  server = await startChildServer({
    realtime: { maxBufferBytes: MAX_BUFFER, maxConnectionsPerAddress: 1000 },
    collections: [
      {
        slug: 'posts',
        access: { read: true },
        fields: [
          { name: 'title', type: 'text' },
          { name: 'body', type: 'textarea' },
        ],
      },
    ],
  });
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await server?.stop();
});

/**
 * The server's open sockets on its HTTP port: the descriptors stalled clients could hold. Counted from
 * /proc so that what else the process opens (PostgreSQL's pool grows under load) does not count.
 */
const openDescriptors = () => {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${server.pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${server.pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // Closed while listing.
    }
  }
  const port = Number(new URL(server.url).port).toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of ['tcp', 'tcp6']) {
    const lines = fs.readFileSync(`/proc/${server.pid}/net/${table}`, 'utf8').trim().split('\n').slice(1);
    for (const line of lines) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${port}`) && inodes.has(cols[9]!)) count++;
    }
  }
  return count;
};

const stalledStream = async () => {
  const stream = await openStalledStream(server.url, '/api/cms/realtime?topics=posts');
  sockets.push(stream.socket);
  return stream;
};

test('stalled streams are cut at their buffer bound while large documents are saved: memory and descriptors stay bounded', async () => {
  const body = (i: number) => `${i}`.padEnd(BODY_CHARS, 'abcdefghijklmnopqrstuvwxyz0123456789');
  // Warm up: compiled paths and the heap's working size, so what follows measures growth.
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${server.api}/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
      body: JSON.stringify({ title: `warm ${i}`, body: body(i) }),
    });
    expect(res.status).toBe(201);
  }
  Bun.gc(true);
  const baselineRSS = server.rssMB();
  const baselineFds = openDescriptors();

  // Waves of stalled clients: memory held for the ones before must not add up.
  let peak = baselineRSS;
  const all: Awaited<ReturnType<typeof stalledStream>>[] = [];
  for (let wave = 0; wave < WAVES; wave++) {
    const streams = await Promise.all(Array.from({ length: STALLED }, () => stalledStream()));
    all.push(...streams);
    await Bun.sleep(200);
    for (let i = 0; i < SAVES; i++) {
      const res = await fetch(`${server.api}/posts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
        body: JSON.stringify({ title: `big ${wave}.${i}`, body: body(i) }),
      });
      expect(res.status).toBe(201);
      peak = Math.max(peak, server.rssMB());
    }
    // Every save reached every stream's queue by now, or the stream was cut before it.
    const deadline = Date.now() + 5_000;
    while (streams.some((s) => !s.ended()) && Date.now() < deadline) {
      peak = Math.max(peak, server.rssMB());
      await Bun.sleep(50);
    }
  }
  const ended = all.filter((s) => s.ended()).length;
  // A cut socket's descriptor goes when the kernel has finished with it: give that a moment.
  let fdsAfter = openDescriptors();
  for (const settle = Date.now() + 15_000; fdsAfter > baselineFds + 12 && Date.now() < settle; ) {
    await Bun.sleep(100);
    fdsAfter = openDescriptors();
  }
  console.log(
    `${WAVES} waves of ${STALLED} stalled streams, ${SAVES} saves of ${BODY_CHARS / 1000} kB each: RSS ${baselineRSS.toFixed(0)} -> peak ${peak.toFixed(0)} MB, ` +
      `${ended} of ${WAVES * STALLED} closed by the server, sockets on the HTTP port ${baselineFds} -> ${fdsAfter}`,
  );
  // Each stream is sent ~10 MB, more than the kernel's socket buffers take. Before the server cut sockets
  // itself, what it kept for the streams it gave up on added ~1 MB each, wave after wave (+160 to +190 MB
  // over three waves). Bounded: per stream 0.2 MB plus the event in flight, freed when it is cut.
  expect(peak - baselineRSS).toBeLessThan(100);
  expect(ended).toBe(WAVES * STALLED);
  // A few more for the keep-alive connections of the saves and sockets still closing on a busy machine;
  // before, one more for every stalled client (180), all still open.
  expect(fdsAfter).toBeLessThan(baselineFds + STALLED);
}, 120_000);
