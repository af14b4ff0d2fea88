/**
 * A large JSON answer finished after the turn that received its request (here an afterRead hook that waits
 * for the next turn) goes to Bun as a stream of one chunk, which leaves in one write (src/http/late-answer.ts): over
 * a real socket it arrives chunked, with the same JSON. A small late answer and a large one ready in its
 * own turn keep their Content-Length, and a HEAD is left alone.
 */
import { describe, expect, test } from 'bun:test';
import type { UserConfig } from '../../src/config/types.ts';
import { serveOverSocket } from '../support/socket-server.ts';

const config: UserConfig = {
  cache: false,
  collections: [
    {
      slug: 'notes',
      access: { read: () => true },
      fields: [{ name: 'body', type: 'textarea' }],
      hooks: {
        afterRead: [
          async ({ doc }) => {
            // The next turn, surely: a timer of 1 ms could already be due, and run, before the turn ends.
            await new Promise((resolve) => setImmediate(resolve));
            return doc;
          },
        ],
      },
    },
  ],
};

describe('answers finished in a later turn', () => {
  const large = 'large '.repeat(5000);
  const { api } = serveOverSocket(config, {
    prefix: 'cms-late-',
    seed: async (cms) => {
      await cms.store.run('INSERT INTO "notes" ("body", "createdAt", "updatedAt") VALUES (?, ?, ?)', [large, 1, 1]);
      await cms.store.run('INSERT INTO "notes" ("body", "createdAt", "updatedAt") VALUES (?, ?, ?)', ['small', 1, 1]);
    },
  });
  // Bun's fetch asks for compressed answers unless told otherwise.
  const plain = { 'accept-encoding': 'identity' };

  test('a large one arrives as one chunked stream with the same JSON and headers', async () => {
    const res = await fetch(`${api()}/notes/1`, { headers: plain });
    expect(res.status).toBe(200);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('etag')).toBeTruthy();
    const doc = (await res.json()) as { id: number; body: string };
    expect(doc.body).toBe(large);
  });

  test('a large one the client takes compressed is sent as its compressed bytes', async () => {
    const res = await fetch(`${api()}/notes/1`, { headers: { 'accept-encoding': 'gzip' }, decompress: false });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const doc = JSON.parse(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer()))));
    expect(doc.body).toBe(large);
  });

  test('a small one keeps its length, and so does a HEAD', async () => {
    const small = await fetch(`${api()}/notes/2`, { headers: plain });
    expect(small.headers.get('content-length')).toBe(String((await small.clone().arrayBuffer()).byteLength));
    expect(((await small.json()) as { body: string }).body).toBe('small');
    const head = await fetch(`${api()}/notes/1`, { method: 'HEAD', headers: plain });
    expect(head.status).toBe(200);
    expect(head.headers.get('transfer-encoding')).toBeNull();
  });

  test('a large one ready in its own turn keeps its length', async () => {
    // The first request builds the document (a module loaded on demand); the next is answered from memory.
    await (await fetch(`${api()}/openapi.json`, { headers: plain })).arrayBuffer();
    const res = await fetch(`${api()}/openapi.json`, { headers: plain });
    const bytes = await res.arrayBuffer();
    expect(bytes.byteLength).toBeGreaterThan(16 * 1024);
    expect(res.headers.get('content-length')).toBe(String(bytes.byteLength));
  });
});
