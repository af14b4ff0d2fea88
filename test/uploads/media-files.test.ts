/** GET /media/file/:name: bytes, headers, ETag, ranges, and names that must never reach the disk. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { startTestServer, type TestServer } from '../harness.ts';
import { form, pdf, png } from '../support/media-fixtures.ts';
import { rawGet } from '../support/raw-http.ts';

const PNG = await png(120, 60);
let t: TestServer;
let doc: any;
let pdfDoc: any;
let gzDoc: any;
const asked: string[] = [];

beforeAll(async () => {
  t = await startTestServer({
    upload: {
      mimeTypes: ['image/*', 'application/pdf', 'application/gzip'],
      imageSizes: [{ name: 'small', width: 30 }],
    },
  });
  const { token } = await t.user('editor');
  doc = (await t.request('POST', '/media', { body: form(PNG, 'picture.png'), token })).body.doc;
  pdfDoc = (await t.request('POST', '/media', { body: form(pdf(100), 'doc.pdf'), token })).body.doc;
  gzDoc = (
    await t.request('POST', '/media', {
      body: form(zlib.gzipSync('<html><script>alert(1)</script></html>'), 'page.html.gz'),
      token,
    })
  ).body.doc;
  const get = t.cms.storage.get.bind(t.cms.storage);
  t.cms.storage = {
    ...t.cms.storage,
    get: (key) => {
      asked.push(key);
      return get(key);
    },
  };
  fs.writeFileSync(path.join(t.dir, 'secret.txt'), 'top secret');
  fs.writeFileSync(path.join(t.dir, 'uploads', 'stray-aaaaaaaaaa.png'), PNG);
});
afterAll(() => t.stop());

const file = (name: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${t.api}/media/file/${name}`, { headers, method });

describe('GET /media/file/:name', () => {
  test('streams the stored bytes with caching and sandboxing headers, without login', async () => {
    const res = await file(doc.filename);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(PNG));
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(PNG.length));
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(res.headers.get('content-disposition')).toStartWith('inline');
  });

  test('the url in the document is the file route', async () => {
    expect((await fetch(`${t.url}${doc.url}`)).status).toBe(200);
    expect((await fetch(`${t.url}${doc.sizes.small.url}`)).status).toBe(200);
  });

  test('a size is served with its own bytes and type', async () => {
    const res = await file(doc.sizes.small.filename);
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes.length).toBe(doc.sizes.small.filesize);
    expect(bytes.length).not.toBe(PNG.length);
  });

  test('a PDF is served inline, a type that is not plainly media as an attachment, both sandboxed', async () => {
    expect((await file(pdfDoc.filename)).headers.get('content-disposition')).toStartWith('inline');
    const gz = await file(gzDoc.filename);
    expect(gz.headers.get('content-type')).toBe('application/gzip');
    expect(gz.headers.get('content-disposition')).toStartWith('attachment');
    expect(gz.headers.get('content-security-policy')).toContain('sandbox');
  });

  test('If-None-Match with the ETag is a 304 without a body', async () => {
    const etag = (await file(doc.filename)).headers.get('etag')!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await file(doc.filename, { 'if-none-match': header });
      expect(res.status).toBe(304);
      expect(await res.text()).toBe('');
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    expect((await file(doc.filename, { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  const rangeCases: [string, number, string | null, (n: number) => [number, number] | null][] = [
    ['bytes=0-9', 206, 'bytes 0-9/N', () => [0, 10]],
    ['bytes=10-', 206, 'bytes 10-(N-1)/N', (n) => [10, n]],
    ['bytes=-5', 206, 'bytes (N-5)-(N-1)/N', (n) => [n - 5, n]],
    ['bytes=5-100000', 206, 'bytes 5-(N-1)/N', (n) => [5, n]],
    ['bytes=100000-', 416, 'bytes */N', () => null],
    ['bytes=-0', 416, 'bytes */N', () => null],
    ['bytes=9-3', 200, null, (n) => [0, n]],
    ['bytes=0-1,4-5', 200, null, (n) => [0, n]],
    ['items=0-5', 200, null, (n) => [0, n]],
  ];
  for (const [range, status, contentRange, slice] of rangeCases) {
    test(`Range ${range} → ${status}`, async () => {
      const n = PNG.length;
      const res = await file(doc.filename, { range });
      expect(res.status).toBe(status);
      const expected =
        contentRange
          ?.replace('(N-1)', String(n - 1))
          .replace('(N-5)', String(n - 5))
          .replaceAll('N', String(n)) ?? null;
      expect(res.headers.get('content-range')).toBe(expected);
      const body = new Uint8Array(await res.arrayBuffer());
      const want = slice(n);
      if (want) {
        expect(body).toEqual(new Uint8Array(PNG.subarray(want[0], want[1])));
        expect(res.headers.get('content-length')).toBe(String(want[1] - want[0]));
      } else expect(body.length).toBe(0);
    });
  }

  test('If-Range with another ETag sends the whole file; with this one, the range', async () => {
    const etag = (await file(doc.filename)).headers.get('etag')!;
    expect((await file(doc.filename, { range: 'bytes=0-3', 'if-range': '"old"' })).status).toBe(200);
    expect((await file(doc.filename, { range: 'bytes=0-3', 'if-range': etag })).status).toBe(206);
  });

  test('HEAD answers the headers without the bytes', async () => {
    const res = await file(doc.filename, {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await res.text()).toBe('');
  });

  test('other methods are a 405', async () => {
    expect((await file(doc.filename, {}, 'DELETE')).status).toBe(405);
  });

  test('names that are not exactly a stored file name are a 404 and never reach storage', async () => {
    asked.length = 0;
    const names = [
      '..%2Fsecret.txt',
      '%2e%2e%2fsecret.txt',
      '..%5Csecret.txt',
      '%2e%2e%5csecret.txt',
      '%252e%252e%252fsecret.txt',
      '%2Fetc%2Fpasswd',
      '%2fetc%2fpasswd',
      'C:%5Cwindows%5Cwin.ini',
      `${doc.filename}%00.png`,
      `${doc.filename}%00`,
      '.incoming',
      '.',
      '%2e',
      `${doc.filename}%20`,
      `%20${doc.filename}`,
      encodeURIComponent(`../${doc.filename}`),
      `${doc.filename.slice(0, -4)}.PNG`,
      doc.filename.toUpperCase(),
      `${doc.filename}.png`,
      'x'.repeat(300) + '.png',
    ];
    for (const name of names) {
      const res = await rawGet(t.server.port, `/api/cms/media/file/${name}`);
      expect({ name, status: res.status }).toEqual({ name, status: 404 });
      expect(res.text).not.toContain('top secret');
    }
    for (const p of [
      '/api/cms/media/file/../../secret.txt',
      '/api/cms/media/file/../file/secret.txt',
      `/api/cms/media/file/${doc.filename}/..`,
      '/api/cms/media/file//etc/passwd',
    ]) {
      const res = await rawGet(t.server.port, p);
      expect([404, 400]).toContain(res.status);
      expect(res.text).not.toContain('top secret');
    }
    expect(asked).toEqual([]);
  });

  test('a file in the folder that no media document names is a 404', async () => {
    asked.length = 0;
    expect((await file('stray-aaaaaaaaaa.png')).status).toBe(404);
    expect(asked).toEqual([]);
  });

  test('a size name of a real document that is not one of its sizes is a 404', async () => {
    const fake = doc.sizes.small.filename.replace('-small.', '-large.');
    expect((await file(fake)).status).toBe(404);
  });

  test('a document whose file went missing from storage is a 404', async () => {
    const { token } = await t.user('editor');
    const gone = (await t.request('POST', '/media', { body: form(PNG, 'gone.png'), token })).body.doc;
    fs.rmSync(path.join(t.dir, 'uploads', gone.filename));
    expect((await file(gone.filename)).status).toBe(404);
  });

  test('after the document is deleted, its file and sizes are a 404', async () => {
    const { token } = await t.user('editor');
    const temp = (await t.request('POST', '/media', { body: form(PNG, 'temp.png'), token })).body.doc;
    expect((await file(temp.filename)).status).toBe(200);
    await t.request('DELETE', `/media/${temp.id}`, { token });
    expect((await file(temp.filename)).status).toBe(404);
    expect((await file(temp.sizes.small.filename)).status).toBe(404);
  });
});
