/**
 * One table of storage scenarios (upload, read, ranges, ETag, the document's url, refusals, delete, Local
 * API) run against every backend: local disk, S3 on a real S3-compatible server (s3rver on loopback),
 * S3 with publicUrl, and a custom adapter from config. Then the S3 settings on their own.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';
import { filesIn, form, pdf, png } from '../support/media-fixtures.ts';
import { startS3Server, type S3TestServer } from '../support/s3-server.ts';
import { resolveS3Settings } from '../../src/uploads/storage/s3.ts';
import { localAPI } from '../../src/local.ts';
import type { StorageAdapter, UserConfig } from '../../src/config/types.ts';

const PNG = await png(160, 80);
const LIMIT = 256 * 1024;
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server('cms-media');
});
afterAll(() => s3?.stop());

const s3Options = () => ({
  type: 's3' as const,
  bucket: s3.bucket,
  endpoint: s3.endpoint,
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  prefix: '/site/uploads/',
});
const s3Client = () =>
  new Bun.S3Client({ bucket: s3.bucket, endpoint: s3.endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });

/** A custom adapter as a project would write one: plain put/get/delete (in memory here). */
function memoryAdapter(): StorageAdapter & { objects: Map<string, Uint8Array> } {
  const objects = new Map<string, Uint8Array>();
  return {
    objects,
    async put(key, body) {
      objects.set(key, new Uint8Array(await body.arrayBuffer()));
    },
    async get(key) {
      const bytes = objects.get(key);
      return bytes
        ? { body: new Blob([bytes as Uint8Array<ArrayBuffer>]), size: bytes.length, etag: `"${key}"` }
        : null;
    },
    async delete(key) {
      objects.delete(key);
    },
  };
}

type Backend = {
  name: string;
  config: () => UserConfig['upload'];
  /** Every stored key, sorted (staged files excluded). */
  stored: (t: TestServer) => Promise<string[]>;
  /** The url a document should carry for a stored name. */
  url: (t: TestServer, filename: string) => string;
  /** Bun sends a streamed S3 body chunked, without Content-Length (oven-sh/bun#10507). */
  chunked?: boolean;
};

let memory = memoryAdapter();
const backends: Backend[] = [
  {
    name: 'local disk',
    config: () => ({}),
    stored: async (t) => filesIn(path.join(t.dir, 'uploads')).filter((f) => !f.startsWith('.incoming')),
    url: (_t, f) => `/api/cms/media/file/${f}`,
  },
  {
    name: 'S3 (s3rver)',
    config: () => ({ storage: s3Options() }),
    stored: async () =>
      ((await s3Client().list({ prefix: 'site/uploads/' })).contents ?? [])
        .map((o) => o.key.slice('site/uploads/'.length))
        .sort(),
    url: (_t, f) => `/api/cms/media/file/${f}`,
    chunked: true,
  },
  {
    name: 'S3 with publicUrl',
    config: () => ({ storage: { ...s3Options(), prefix: 'public', publicUrl: `${s3.endpoint}/${s3.bucket}/` } }),
    stored: async () =>
      ((await s3Client().list({ prefix: 'public/' })).contents ?? []).map((o) => o.key.slice('public/'.length)).sort(),
    url: (_t, f) => `${s3.endpoint}/${s3.bucket}/public/${f}`,
    chunked: true,
  },
  {
    name: 'custom adapter',
    config: () => ({ storage: (memory = memoryAdapter()) }),
    stored: async () => [...memory.objects.keys()].sort(),
    url: (_t, f) => `/api/cms/media/file/${f}`,
  },
];

type Context = { t: TestServer; backend: Backend; token: string; doc: any };
type StorageScenario = { name: string; run: (c: Context) => Promise<void> };

const absolute = (c: Context, url: string) => (url.startsWith('http') ? url : `${c.t.url}${url}`);
const fileRoute = (c: Context, name: string, headers: Record<string, string> = {}) =>
  fetch(`${c.t.api}/media/file/${name}`, { headers });
const allKeys = (doc: any) => [doc.filename, ...Object.values(doc.sizes).map((s: any) => s.filename)].sort();

const scenarios: StorageScenario[] = [
  {
    name: 'upload stores the original and every size, and the document carries their urls',
    run: async (c) => {
      expect(c.doc).toMatchObject({
        mimeType: 'image/png',
        width: 160,
        height: 80,
        filesize: PNG.length,
        sizes: { thumb: { width: 40, height: 20 } },
      });
      expect(c.doc.url).toBe(c.backend.url(c.t, c.doc.filename));
      expect(c.doc.sizes.thumb.url).toBe(c.backend.url(c.t, c.doc.sizes.thumb.filename));
      expect(await c.backend.stored(c.t)).toEqual(allKeys(c.doc));
    },
  },
  {
    name: 'the file route streams the bytes with the same caching and sandboxing headers',
    run: async (c) => {
      const res = await fileRoute(c, c.doc.filename);
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(PNG));
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-security-policy')).toContain('sandbox');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-length')).toBe(c.backend.chunked ? null : String(PNG.length));
    },
  },
  {
    name: 'the url in the document serves the bytes (through the API, or straight from the bucket with publicUrl)',
    run: async (c) => {
      const res = await fetch(absolute(c, c.doc.url));
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array(PNG));
      const size = await fetch(absolute(c, c.doc.sizes.thumb.url));
      expect(size.status).toBe(200);
      expect((await size.arrayBuffer()).byteLength).toBe(c.doc.sizes.thumb.filesize);
    },
  },
  {
    name: 'byte ranges: 206 for a range, a suffix and an open end; 416 outside the file',
    run: async (c) => {
      const n = PNG.length;
      const first = await fileRoute(c, c.doc.filename, { range: 'bytes=0-9' });
      expect(first.status).toBe(206);
      expect(first.headers.get('content-range')).toBe(`bytes 0-9/${n}`);
      expect(new Uint8Array(await first.arrayBuffer())).toEqual(new Uint8Array(PNG.subarray(0, 10)));
      const suffix = await fileRoute(c, c.doc.filename, { range: 'bytes=-7' });
      expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(new Uint8Array(PNG.subarray(n - 7)));
      const open = await fileRoute(c, c.doc.filename, { range: `bytes=${n - 3}-` });
      expect(open.headers.get('content-range')).toBe(`bytes ${n - 3}-${n - 1}/${n}`);
      expect((await open.arrayBuffer()).byteLength).toBe(3);
      const outside = await fileRoute(c, c.doc.filename, { range: `bytes=${n}-` });
      expect(outside.status).toBe(416);
      expect(outside.headers.get('content-range')).toBe(`bytes */${n}`);
    },
  },
  {
    name: 'If-None-Match with the ETag is a 304',
    run: async (c) => {
      const etag = (await fileRoute(c, c.doc.filename)).headers.get('etag')!;
      expect(etag).toBeTruthy();
      expect((await fileRoute(c, c.doc.filename, { 'if-none-match': etag })).status).toBe(304);
    },
  },
  {
    name: 'refused uploads (413, 415, 401) leave nothing in storage',
    run: async (c) => {
      const before = await c.backend.stored(c.t);
      expect((await c.t.request('POST', '/media', { body: form(pdf(LIMIT), 'big.pdf'), token: c.token })).status).toBe(
        413,
      );
      expect(
        (await c.t.request('POST', '/media', { body: form(Buffer.from('plain text'), 'fake.png'), token: c.token }))
          .status,
      ).toBe(415);
      expect((await c.t.request('POST', '/media', { body: form(PNG, 'anon.png') })).status).toBe(401);
      expect(await c.backend.stored(c.t)).toEqual(before);
    },
  },
  {
    name: 'the Local API uploads to the same storage (Blob, bytes with a name, a path)',
    run: async (c) => {
      const api = localAPI(c.t.cms);
      const file = path.join(c.t.dir, 'on-disk.png');
      fs.writeFileSync(file, PNG);
      const docs: any[] = [
        await api.upload({
          file: new File([PNG as Uint8Array<ArrayBuffer>], 'blob.png'),
          data: { alt: 'from a File' },
        }),
        await api.upload({ file: { data: new Uint8Array(PNG), name: 'bytes.png' } }),
        await api.upload({ file }),
      ];
      expect(docs.map((d) => d.filename.split('-')[0])).toEqual(['blob', 'bytes', 'on']);
      expect(docs[0].alt).toBe('from a File');
      const stored = await c.backend.stored(c.t);
      for (const d of docs) for (const key of allKeys(d)) expect(stored).toContain(key);
      for (const d of docs) await api.delete({ collection: 'media', id: d.id });
    },
  },
  {
    name: 'deleting the document deletes the original and every size from storage',
    run: async (c) => {
      const res = await c.t.request('DELETE', `/media/${c.doc.id}`, { token: c.token });
      expect(res.status).toBe(200);
      const stored = await c.backend.stored(c.t);
      for (const key of allKeys(c.doc)) expect(stored).not.toContain(key);
      expect((await fileRoute(c, c.doc.filename)).status).toBe(404);
    },
  },
];

for (const backend of backends) {
  describe(`storage scenarios: ${backend.name}`, () => {
    const c = { backend } as Context;
    beforeAll(async () => {
      c.t = await startTestServer({
        upload: {
          maxFileSize: LIMIT,
          imageSizes: [
            { name: 'thumb', width: 40 },
            { name: 'wide', width: 120, height: 30 },
          ],
          ...backend.config(),
        },
      });
      c.token = (await c.t.user('editor')).token;
      const res = await c.t.request('POST', '/media', { body: form(PNG, 'shared.png', { alt: 'x' }), token: c.token });
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
      c.doc = res.body.doc;
    });
    afterAll(() => c.t?.stop());
    for (const scenario of scenarios) test(scenario.name, () => scenario.run(c));
  });
}

describe('S3 settings', () => {
  const env = {
    AWS_ACCESS_KEY_ID: 'env-key',
    AWS_SECRET_ACCESS_KEY: 'env-secret',
    AWS_SESSION_TOKEN: 'env-token',
    AWS_REGION: 'eu-central-1',
  };
  const cases: {
    name: string;
    options: Record<string, unknown>;
    env?: Record<string, string>;
    expect: Record<string, unknown>;
  }[] = [
    {
      name: 'credentials and region from the environment',
      options: { bucket: 'b' },
      env,
      expect: {
        accessKeyId: 'env-key',
        secretAccessKey: 'env-secret',
        sessionToken: 'env-token',
        region: 'eu-central-1',
        virtualHostedStyle: true,
      },
    },
    {
      name: 'options beat the environment',
      options: { bucket: 'b', accessKeyId: 'k', secretAccessKey: 's', region: 'us-west-2' },
      env,
      expect: { accessKeyId: 'k', secretAccessKey: 's', region: 'us-west-2' },
    },
    {
      name: 'region defaults to us-east-1',
      options: { bucket: 'b' },
      env: {},
      expect: { region: 'us-east-1', accessKeyId: undefined },
    },
    {
      name: "region 'auto' (R2) is passed through",
      options: { bucket: 'b', region: 'auto', endpoint: 'https://acc.r2.cloudflarestorage.com' },
      env: {},
      expect: { region: 'auto', endpoint: 'https://acc.r2.cloudflarestorage.com' },
    },
    {
      name: 'an endpoint means path style by default',
      options: { bucket: 'b', endpoint: 'http://127.0.0.1:9000/' },
      env: {},
      expect: { endpoint: 'http://127.0.0.1:9000', virtualHostedStyle: undefined },
    },
    {
      name: 'forcePathStyle: false with an endpoint puts the bucket in the host name',
      options: { bucket: 'b', endpoint: 'https://s3.example.com', forcePathStyle: false },
      env: {},
      expect: { endpoint: 'https://b.s3.example.com', virtualHostedStyle: true },
    },
    {
      name: 'forcePathStyle: true without an endpoint stays path style',
      options: { bucket: 'b', forcePathStyle: true },
      env: {},
      expect: { virtualHostedStyle: undefined, endpoint: undefined },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const settings = resolveS3Settings({ type: 's3', ...c.options } as never, c.env ?? {});
      expect(settings.client).toMatchObject({ bucket: 'b' });
      for (const [key, value] of Object.entries(c.expect))
        expect({ key, value: (settings.client as unknown as Record<string, unknown>)[key] }).toEqual({ key, value });
    });
  }

  test('prefix and publicUrl are normalised', () => {
    const s = resolveS3Settings(
      { type: 's3', bucket: 'b', prefix: '/a/b/', publicUrl: 'https://cdn.example.com/' },
      {},
    );
    expect(s.prefix).toBe('a/b/');
    expect(s.publicUrl).toBe('https://cdn.example.com');
  });

  const refusedAtStart = async (storage: unknown) => {
    const dir = tempDir();
    try {
      return await startTestServer({ upload: { storage: storage as never } }, { dir }).then(
        () => 'started',
        (e: Error) => e.message,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  test('a missing bucket stops start-up with a config error', async () => {
    expect(await refusedAtStart({ type: 's3' })).toMatch(/upload\.storage\.bucket/);
  });

  test('an upload.storage that is neither S3 nor an adapter stops start-up', async () => {
    expect(await refusedAtStart({ put() {} })).toMatch(/upload\.storage/);
  });

  test('without credentials the service starts; the first upload fails with a clear error and leaves nothing', async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    const t = await startTestServer({ upload: { storage: { type: 's3', bucket: s3.bucket, endpoint: s3.endpoint } } });
    try {
      const errors: string[] = [];
      t.cms.log = { ...t.cms.log, error: (...a: unknown[]) => errors.push(a.map(String).join(' ')) };
      const { token } = await t.user('editor');
      const res = await t.request('POST', '/media', { body: form(PNG, 'a.png'), token });
      expect(res.status).toBe(500);
      expect(res.text).not.toContain('credentials'); // production: no details in the answer
      expect(errors.join('\n')).toContain('has no credentials');
      expect(errors.join('\n')).toContain('AWS_ACCESS_KEY_ID');
      expect((await t.request('GET', '/media')).body.totalDocs).toBe(0);
      expect(filesIn(path.join(t.cms.config.dataDir, 'incoming-uploads'))).toEqual([]);
    } finally {
      await t.stop();
      if (saved.id !== undefined) process.env.AWS_ACCESS_KEY_ID = saved.id;
      if (saved.secret !== undefined) process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    }
  });
});
