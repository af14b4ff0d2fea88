/**
 * A client generated from `/openapi.json` with the tools people use (openapi-typescript for the types,
 * openapi-fetch for the calls) compiles under `strict` without a single cast, and then runs against the
 * server: `where`, `select` and `populate` are typed query objects, create has one answer type (the
 * method-override list read is documented as the list), and media sizes are typed (docs/openapi.md).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import openapiTS from 'openapi-typescript';
import { startTestServer, tempDir, type Session, type TestServer } from '../harness.ts';
import { ROOT, run } from '../support/consumer-project.ts';
import { png } from '../support/media-fixtures.ts';

const CLIENT = `
import createClient from 'openapi-fetch';
import qs from 'qs';
import type { paths } from './schema.ts';

const client = createClient<paths>({
  baseUrl: process.env.CMS_API,
  headers: { authorization: \`Bearer \${process.env.CMS_TOKEN}\` },
  querySerializer: (query) => qs.stringify(query, { encodeValuesOnly: true }),
});

const created = await client.POST('/posts', { body: { title: 'Typed', views: 3, seo: { title: 'S' }, body: '# Hi' } });
if (!created.data) throw new Error(JSON.stringify(created.error));
const id: number = created.data.doc.id;
const message: string = created.data.message;

const list = await client.GET('/posts', {
  params: { query: { where: { or: [{ title: { equals: 'Typed' } }, { views: { gt: 100 } }], 'seo.title': { exists: true } }, select: { title: true, seo: { title: true } }, populate: { media: { alt: true } }, limit: 5 } },
});
if (!list.data) throw new Error(JSON.stringify(list.error));
const first = list.data.docs[0];
const title: string | null | undefined = first?.title;
const total: number = list.data.totalDocs;

const one = await client.GET('/posts/{id}', { params: { path: { id }, query: { depth: 0, draft: false, richText: 'html' } } });
const views: number | null | undefined = one.data?.views;
const html = one.data?.body;

const found = await client.GET('/search', { params: { query: { q: 'typ', collections: 'posts' } } });
const hit: string | undefined = found.data?.docs[0]?.title;
const audit = await client.GET('/audit-log', { params: { query: { where: { action: { equals: 'create' } }, limit: 1 } } });
const action: string | undefined = audit.data?.docs[0]?.action;
const lock = await client.POST('/posts/{id}/lock', { params: { path: { id } }, body: {} });
const mine: boolean | undefined = lock.data?.lock.mine;

const media = await client.GET('/media/{id}', { params: { path: { id: Number(process.env.CMS_MEDIA) } } });
const thumb: number | undefined = media.data?.sizes?.thumb?.width;

console.log(JSON.stringify({ id, message, title, total, views, thumb, html, hit, action, mine }));
`;

let t: TestServer;
let admin: Session;
let dir: string;
let mediaId: number;

beforeAll(async () => {
  t = await startTestServer({
    upload: { imageSizes: [{ name: 'thumb', width: 8 }] },
    collections: [
      {
        slug: 'posts',
        access: { read: () => true },
        search: { fields: ['title'] },
        fields: [
          { name: 'title', type: 'text', required: true },
          { name: 'body', type: 'richText' },
          { name: 'views', type: 'number' },
          { name: 'cover', type: 'upload', relationTo: 'media' },
          { name: 'seo', type: 'group', fields: [{ name: 'title', type: 'text' }] },
        ],
      },
    ],
  });
  admin = await t.user('admin');
  const form = new FormData();
  form.append('file', new File([await png(20, 10)], 'a.png', { type: 'image/png' }));
  mediaId = (await t.request('POST', '/media', { token: admin.token, body: form })).body.doc.id;
  dir = tempDir('cms-openapi-client-');
});
afterAll(async () => {
  await t?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('openapi-typescript + openapi-fetch: a strict client compiles without casts and runs', async () => {
  const document = (await t.request('GET', '/openapi.json', { token: admin.token })).body;
  fs.writeFileSync(path.join(dir, 'schema.ts'), await openapiTS(document));
  fs.writeFileSync(path.join(dir, 'client.ts'), CLIENT);
  expect(CLIENT).not.toMatch(/\bas\b|<any>|@ts-/);
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        allowImportingTsExtensions: true,
        skipLibCheck: false,
        types: ['bun'],
      },
      files: ['client.ts'],
    }),
  );
  fs.mkdirSync(path.join(dir, 'node_modules'));
  for (const name of ['openapi-fetch', 'openapi-typescript-helpers', 'qs', '@types'])
    fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(dir, 'node_modules', name), 'dir');

  const compiled = run([path.join(ROOT, 'node_modules/.bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false'], dir);
  expect(compiled.out).toBe('');
  expect(compiled.code).toBe(0);

  // Asynchronously: the server answers from this process.
  const ran = Bun.spawn([process.execPath, 'client.ts'], {
    cwd: dir,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, CMS_API: t.api, CMS_TOKEN: admin.token, CMS_MEDIA: String(mediaId) },
  });
  const [out, err] = await Promise.all([new Response(ran.stdout).text(), new Response(ran.stderr).text(), ran.exited]);
  expect(err).toBe('');
  expect(JSON.parse(out)).toMatchObject({
    message: expect.any(String),
    title: 'Typed',
    total: 1,
    views: 3,
    thumb: 8,
    html: expect.stringContaining('<h1>Hi</h1>'),
    hit: 'Typed',
    action: 'create',
    mine: true,
  });
}, 60_000);
