/** Upload collections: `upload` on any collection gives it media's fields, routes, image sizes, file cleanup and sweep safety. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../harness.ts';
import { form, pdf, png } from '../support/media-fixtures.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import { localAPI } from '../../src/local.ts';
import { sweepUploadLeftovers } from '../../src/uploads/sweep-leftovers.ts';

const PNG = await png(120, 60);
const PDF = pdf();
const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
const config: UserConfig = {
  upload: { imageSizes: [{ name: 'thumb', width: 60 }] },
  collections: [
    {
      slug: 'documents',
      upload: { mimeTypes: ['application/pdf'] },
      access: open,
      fields: [{ name: 'title', type: 'text' }],
    },
    {
      slug: 'images',
      upload: { imageSizes: [{ name: 'card', width: 40 }] },
      access: open,
      fields: [{ name: 'caption', type: 'text' }],
    },
    {
      slug: 'posts',
      access: open,
      fields: [
        { name: 'title', type: 'text' },
        { name: 'attachment', type: 'upload', relationTo: 'documents' },
        { name: 'picture', type: 'upload', relationTo: 'images' },
      ],
    },
  ],
};

describe('upload collections', () => {
  let t: TestServer;
  let token: string;
  const stored = (name: string) => path.join(t.dir, 'uploads', name);
  beforeAll(async () => {
    t = await startTestServer(config);
    token = (await t.user('editor')).token;
  });
  afterAll(() => t.stop());

  test('POST /:collection takes a multipart upload: file fields, own fields, its own file route', async () => {
    const res = await t.request('POST', '/documents', { body: form(PDF, 'Terms.pdf', { title: 'Terms' }), token });
    expect(res.status).toBe(201);
    const doc = res.body.doc;
    expect(doc).toMatchObject({
      title: 'Terms',
      originalName: 'Terms.pdf',
      mimeType: 'application/pdf',
      filesize: PDF.length,
    });
    expect(doc.url).toBe(`/api/cms/documents/file/${doc.filename}`);
    const file = await fetch(`${t.api}/documents/file/${doc.filename}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PDF);
    // Files are served by the collection that names them.
    expect((await fetch(`${t.api}/media/file/${doc.filename}`)).status).toBe(404);
  });

  test("the collection's mimeTypes replace the config's", async () => {
    const res = await t.request('POST', '/documents', { body: form(PNG, 'a.png'), token });
    expect(res.status).toBe(415);
    expect((await t.request('GET', '/documents?where[originalName][equals]=a.png')).body.totalDocs).toBe(0);
  });

  test("the collection's imageSizes replace the config's; size files are served", async () => {
    const res = await t.request('POST', '/images', { body: form(PNG, 'Photo.png', { caption: 'hi' }), token });
    expect(res.status).toBe(201);
    const doc = res.body.doc;
    expect(Object.keys(doc.sizes)).toEqual(['card']);
    expect(doc.sizes.card).toMatchObject({ width: 40, height: 20 });
    expect(doc.sizes.card.url).toBe(`/api/cms/images/file/${doc.sizes.card.filename}`);
    expect((await fetch(`${t.api}/images/file/${doc.sizes.card.filename}`)).status).toBe(200);
  });

  test('a document is created only by uploading; file fields cannot be written', async () => {
    const create = await t.request('POST', '/documents', { body: { title: 'x' }, token });
    expect(create.status).toBe(400);
    expect(create.body.errors[0].field).toBe('file');
    await expect(
      localAPI(t.cms).create({ collection: 'documents', data: { title: 'x' }, overrideAccess: true }),
    ).rejects.toThrow('POST /documents');
    const patch = await t.request('PATCH', '/documents/1', { body: { filename: 'evil.pdf' }, token });
    expect(patch.status).toBe(400);
    expect(patch.body.errors[0].field).toBe('filename');
    const ok = await t.request('PATCH', '/documents/1', { body: { title: 'Terms v2' }, token });
    expect(ok.body.doc.title).toBe('Terms v2');
  });

  test('upload fields pointing at an upload collection populate with its URL', async () => {
    const res = await t.request('POST', '/posts', { body: { title: 'p', attachment: 1, picture: 1 }, token });
    expect(res.status).toBe(201);
    const read = await t.request('GET', `/posts/${res.body.doc.id}?depth=1`);
    expect(read.body.attachment.url).toContain('/api/cms/documents/file/');
    expect(read.body.picture.sizes.card.url).toContain('/api/cms/images/file/');
  });

  test("the crash sweep keeps every upload collection's files, however old", async () => {
    const docs = (await t.request('GET', '/images?depth=0')).body.docs;
    const names = [
      docs[0].filename,
      docs[0].sizes.card.filename,
      (await t.request('GET', '/documents/1')).body.filename,
    ];
    const old = new Date(t.clock.now() - 3 * 3600_000);
    for (const name of names) fs.utimesSync(stored(name), old, old);
    fs.writeFileSync(stored('orphan-abcdefghij.pdf'), 'x');
    fs.utimesSync(stored('orphan-abcdefghij.pdf'), old, old);
    const counts = await sweepUploadLeftovers(t.cms);
    expect(counts.stored).toBe(1);
    for (const name of names) expect(fs.existsSync(stored(name))).toBe(true);
    expect(fs.existsSync(stored('orphan-abcdefghij.pdf'))).toBe(false);
  });

  test('deleting a document removes its files', async () => {
    const doc = (await t.request('GET', '/images/1')).body;
    expect((await t.request('DELETE', '/images/1', { token })).status).toBe(200);
    expect(fs.existsSync(stored(doc.filename))).toBe(false);
    expect(fs.existsSync(stored(doc.sizes.card.filename))).toBe(false);
  });

  test('the Local API uploads into any upload collection', async () => {
    const doc = await localAPI(t.cms).upload({
      collection: 'documents',
      file: { data: PDF, name: 'local.pdf' },
      data: { title: 'Local' },
      overrideAccess: true,
    });
    expect(doc).toMatchObject({ title: 'Local', originalName: 'local.pdf' });
  });
});

test('an upload collection may not declare a field named like a file field', () => {
  expect(() =>
    sanitizeConfig(
      { collections: [{ slug: 'docs', upload: true, fields: [{ name: 'filename', type: 'text' }] }] },
      { configPath: '/x/cms.config.ts', rootDir: '/x' },
    ),
  ).toThrow('collections[0].fields[0].name');
});
