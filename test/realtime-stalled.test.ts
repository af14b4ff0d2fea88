/**
 * Clients that open realtime streams and never read (docs/realtime.md, "Slow and stalled clients"):
 * while an editor saves documents with large bodies, what the server holds for them stays bounded by
 * `realtime.maxBufferBytes` per stream, and the server closes their sockets itself (the client sees the
 * connection end; its descriptor is released). The server runs in its own process (`cms serve`), so its
 * memory and open descriptors are measured from outside. Runs on the engine of CMS_TEST_ENGINE.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import net from 'node:net';
import { startChildServer, type ChildServer } from './support/child-server.ts';

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

const openDescriptors = () => fs.readdirSync(`/proc/${server.pid}/fd`).length;

/** A raw client that sends its request and never reads a byte; `ended` settles when the server drops it. */
async function stalledStream(): Promise<{ ended: Promise<void>; isEnded: () => boolean }> {
  const { hostname, port } = new URL(server.url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  socket.pause();
  let done = false;
  const ended = new Promise<void>((resolve) => {
    const end = () => {
      done = true;
      resolve();
    };
    socket.once('close', end);
    socket.once('end', end);
    socket.on('error', end);
  });
  socket.write(
    `GET /api/cms/realtime?topics=posts HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept: text/event-stream\r\n\r\n`,
  );
  return { ended, isEnded: () => done };
}

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
    while (streams.some((s) => !s.isEnded()) && Date.now() < deadline) {
      peak = Math.max(peak, server.rssMB());
      await Bun.sleep(50);
    }
  }
  const ended = all.filter((s) => s.isEnded()).length;
  const fdsAfter = openDescriptors();
  console.log(
    `${WAVES} waves of ${STALLED} stalled streams, ${SAVES} saves of ${BODY_CHARS / 1000} kB each: RSS ${baselineRSS.toFixed(0)} -> peak ${peak.toFixed(0)} MB, ` +
      `${ended} of ${WAVES * STALLED} closed by the server, descriptors ${baselineFds} -> ${fdsAfter}`,
  );
  // Each stream is sent ~10 MB, more than the kernel's socket buffers take; what the server kept for the streams it gave up on added ~2 MB each, wave
  // after wave (+160 MB over three waves). Bounded: per stream 0.2 MB plus the event in flight, freed when cut.
  expect(peak - baselineRSS).toBeLessThan(80);
  expect(ended).toBe(WAVES * STALLED);
  expect(fdsAfter).toBeLessThanOrEqual(baselineFds + 5);
}, 120_000);
