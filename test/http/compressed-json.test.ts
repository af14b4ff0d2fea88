// Runs once (on the SQLite pass): how answers are compressed, which the engine plays no part in.
/**
 * JSON answers over 1 KB go compressed to a client that accepts it (Brotli preferred, else gzip), with
 * `Vary: Accept-Encoding` and a weak ETag that still revalidates; small answers, clients that accept
 * nothing, and files go as they are. Checked on the raw bytes, on a real socket.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import { cacheFigures } from '../../src/http/cached-read.ts';

describe('compressed JSON answers', () => {
  let t: TestServer;
  let s: Session;
  const raw = (path: string, headers: Record<string, string>) =>
    fetch(`${t.url}/api/cms${path}`, {
      headers: { authorization: `Bearer ${s.token}`, ...headers },
      decompress: false,
    } as RequestInit);

  beforeAll(async () => {
    t = await startTestServer({
      collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }] }],
    });
    await t.request('POST', '/users/first-register', {
      body: { email: 'ada@example.com', password: 'correct horse 2', name: 'Ada' },
    });
    s = await t.login('ada@example.com', 'correct horse 2');
    for (let i = 0; i < 30; i++)
      await t.request('POST', '/posts', { token: s.token, body: { title: `A post with a longer title, number ${i}` } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  test('a list goes as Brotli or gzip as offered, and reads the same as the plain answer', async () => {
    const plain = await raw('/posts?limit=30', { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1024);

    const br = await raw('/posts?limit=30', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    const brBytes = new Uint8Array(await br.arrayBuffer());
    expect(brBytes.byteLength).toBeLessThan(text.length / 2);
    expect(brotliDecompressSync(brBytes).toString()).toBe(text);

    const gz = await raw('/posts?limit=30', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(new Uint8Array(await gz.arrayBuffer())).toString()).toBe(text);

    // The weak ETag of the compressed answer still gets a 304.
    const etag = gz.headers.get('etag');
    expect(etag).toMatch(/^W\//);
    const again = await raw('/posts?limit=30', { 'accept-encoding': 'gzip', 'if-none-match': etag! });
    expect(again.status).toBe(304);
  });

  test('a kept answer is compressed once: its compressed bytes are kept with it and counted in the cache', async () => {
    const path = '/posts?limit=30&sort=title';
    const plain = await raw(path, { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    const before = cacheFigures(t.cms)!.bytes;
    const first = await raw(path, { 'accept-encoding': 'br' });
    const firstBytes = new Uint8Array(await first.arrayBuffer());
    expect(first.headers.get('content-encoding')).toBe('br');
    expect(cacheFigures(t.cms)!.bytes).toBe(before + firstBytes.byteLength);
    const again = await raw(path, { 'accept-encoding': 'br' });
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(firstBytes);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(brotliDecompressSync(firstBytes).toString()).toBe(text);
    expect(cacheFigures(t.cms)!.bytes).toBe(before + firstBytes.byteLength);
    // A write makes the kept answer stale: the next one is computed, kept plain and compressed again.
    await t.request('POST', '/posts', { token: s.token, body: { title: 'A post that comes first in title order' } });
    const fresh = await raw(path, { 'accept-encoding': 'br' });
    expect(brotliDecompressSync(new Uint8Array(await fresh.arrayBuffer())).toString()).toContain('comes first');
  });

  test('small answers, refused encodings and no accept-encoding stay plain', async () => {
    const small = await raw('/posts?limit=1', { 'accept-encoding': 'gzip, br' });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(await small.text()).docs).toHaveLength(1);
    const refused = await raw('/posts?limit=30', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers.get('content-encoding')).toBeNull();
    const none = await fetch(`${t.url}/api/cms/posts?limit=30`, {
      headers: { authorization: `Bearer ${s.token}`, 'accept-encoding': '' },
      decompress: false,
    } as RequestInit);
    expect(none.headers.get('content-encoding')).toBeNull();
  });
});

describe('answers that go plain', () => {
  /** A JSON answer over the size bound that records whether its body stream was asked for. */
  function watchedAnswer() {
    const response = new Response(JSON.stringify({ docs: 'x'.repeat(4096) }), {
      headers: { 'content-type': 'application/json' },
    });
    const seen = { body: false };
    const body = Object.getOwnPropertyDescriptor(Response.prototype, 'body')!.get!;
    Object.defineProperty(response, 'body', {
      get() {
        seen.body = true;
        return body.call(response);
      },
    });
    return { response, seen };
  }

  test('an answer to a client that accepts no encoding goes as it is, its body never made a stream', async () => {
    const { compressJSON } = await import('../../src/http/compress-json.ts');
    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const { response, seen } = watchedAnswer();
      expect(await compressJSON(new Request('http://h/api/cms/posts', { headers }), response)).toBe(response);
      expect(seen.body).toBe(false);
    }
    // A client that accepts Brotli still gets it.
    const { response } = watchedAnswer();
    const packed = await compressJSON(
      new Request('http://h/api/cms/posts', { headers: { 'accept-encoding': 'br' } }),
      response,
    );
    expect(packed.headers.get('content-encoding')).toBe('br');
  });
});
