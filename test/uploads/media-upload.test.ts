/** POST /media: what is accepted, what is refused (type, size, form shape, access), and what is left on disk. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { runScenarios, startTestServer, type Scenario, type TestServer } from '../harness.ts';
import { filesIn, form, hugeDimensionPng, jpeg, pdf, png, rawMultipart, svg } from '../support/media-fixtures.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { sweepUploadLeftovers } from '../../src/uploads/sweep-leftovers.ts';

const PNG = await png(200, 100);
const JPEG = await jpeg(400, 300);
const LIMIT = 64 * 1024;

const config: UserConfig = {
  upload: {
    maxFileSize: LIMIT,
    imageSizes: [
      { name: 'thumb', width: 100 },
      { name: 'square', width: 50, height: 50 },
      { name: 'huge', width: 5000 },
    ],
  },
  collections: [
    {
      slug: 'posts',
      access: { read: () => true, create: () => true },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'cover', type: 'upload' },
      ],
    },
  ],
};

const raw = (parts: Parameters<typeof rawMultipart>[0]) => {
  const { body, contentType } = rawMultipart(parts);
  return { body: new Blob([body as Uint8Array<ArrayBuffer>]), headers: { 'content-type': contentType } };
};
const uploads = (t: TestServer) => path.join(t.dir, 'uploads');
/** The files of the seed's upload, and nothing else: a refused upload stores and half-writes nothing. */
const nothingStored = (t: TestServer) => expect(filesIn(uploads(t))).toEqual(seededFiles);
let seededFiles: string[] = [];

/** An upload as the table's editor that must succeed; answers the document. */
async function upload(t: TestServer, name: string) {
  const res = await t.request('POST', '/media', { token: (await t.session('editor')).token, body: form(PNG, name) });
  expect(res.status).toBe(201);
  return res.body.doc;
}
/** The media document and the post using it as a cover, made before any row runs: the read and PATCH rows. */
const seeded = { media: 0, post: 0 };
const seed = async (t: TestServer) => {
  seeded.media = (await upload(t, 'seeded.png')).id;
  const post = await t.request('POST', '/posts', { body: { title: 'With cover', cover: seeded.media } });
  seeded.post = post.body.doc.id;
  seededFiles = filesIn(uploads(t));
};
/** The files of the document the delete row removes, noted in its setup. */
let deleted: string[] = [];
let deletedId = 0;

const emptyName = raw([{ name: 'file', filename: '', type: 'image/png', data: PNG }]);
const twoFiles = raw([
  { name: 'file', filename: 'a.png', data: PNG },
  { name: 'file', filename: 'b.png', data: PNG },
]);
const otherFilePart = raw([
  { name: 'file', filename: 'a.png', data: PNG },
  { name: 'alt', filename: 'b.png', data: PNG },
]);
const fileAsText = raw([{ name: 'file', data: 'just text' }]);
const pngAsText = raw([
  { name: 'alt', data: 'no file name' },
  { name: 'file', data: PNG },
]);
const controlName = raw([
  { name: 'file', filename: 'tab\there\u0001\u0007bell\u007f.png', type: 'image/png', data: PNG },
]);
const utf8Name = raw([{ name: 'file', filename: 'Crème brûlée 日本.png', type: 'image/png', data: PNG }]);
const extendedName = (() => {
  const r = rawMultipart([{ name: 'file', filename: 'ignored.png', data: PNG }]);
  const text = Buffer.from(r.body)
    .toString('latin1')
    .replace('filename="ignored.png"', `filename="fallback.png"; filename*=UTF-8''na%C3%AFve%20%2F%20plan.png`);
  return { body: new Blob([Buffer.from(text, 'latin1')]), headers: { 'content-type': r.contentType } };
})();
const quotedName = raw([{ name: 'file', filename: 'say %22hi%22.png', data: PNG }]);
const noFile = raw([{ name: 'alt', data: 'no file here' }]);
const noBoundary = { body: new Blob(['x']), headers: { 'content-type': 'multipart/form-data' } };
const truncated = (() => {
  const r = rawMultipart([{ name: 'file', filename: 'a.png', data: PNG }]);
  return {
    body: new Blob([r.body.subarray(0, 300) as Uint8Array<ArrayBuffer>]),
    headers: { 'content-type': r.contentType },
  };
})();

const rows: Scenario[] = [
  {
    name: 'a PNG upload answers 201 { doc, message } with every media field',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(PNG, 'Holiday Photo.png', { alt: 'A blue square' }),
    status: 201,
    events: { create: 1 },
    contains: [
      '"message"',
      '"filename":"Holiday-Photo-',
      '"originalName":"Holiday Photo.png"',
      '"mimeType":"image/png"',
      `"filesize":${PNG.length}`,
      '"width":200',
      '"height":100',
      '"alt":"A blue square"',
      '"url":"/api/cms/media/file/Holiday-Photo-',
      '"createdAt"',
      '"updatedAt"',
    ],
    check: async (res, t) => {
      const doc = res.body.doc;
      // The frame fields (focalX, focalY, crop) appear once set: an upload without them has the plain shape.
      expect(Object.keys(doc).sort()).toEqual(
        [
          'alt',
          'createdAt',
          'filename',
          'filesize',
          'height',
          'id',
          'mimeType',
          'originalName',
          'sizes',
          'updatedAt',
          'url',
          'width',
        ].sort(),
      );
      expect(doc.filename).toMatch(/^Holiday-Photo-[a-z0-9]{10}\.png$/);
      expect(fs.readFileSync(path.join(uploads(t), doc.filename))).toEqual(PNG);
      expect(doc.sizes.thumb).toMatchObject({ width: 100, height: 50, url: expect.stringContaining('-thumb.png') });
      expect(doc.sizes.square).toMatchObject({ width: 50, height: 50 });
      expect(doc.sizes.huge).toMatchObject({ width: 200, height: 100 }); // never enlarged
      for (const size of Object.values(doc.sizes) as { filename: string }[])
        expect(fs.existsSync(path.join(uploads(t), size.filename))).toBe(true);
    },
  },
  {
    name: 'a JPEG keeps its aspect ratio in sizes without a height',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(JPEG, 'photo.jpeg'),
    status: 201,
    events: { create: 1 },
    check: (res) => {
      expect(res.body.doc).toMatchObject({
        mimeType: 'image/jpeg',
        width: 400,
        height: 300,
        sizes: { thumb: { width: 100, height: 75 } },
      });
      expect(res.body.doc.filename).toMatch(/^photo-[a-z0-9]{10}\.jpg$/);
    },
  },
  {
    name: 'the type comes from the bytes: a PNG sent as application/pdf named .pdf is stored as a PNG',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(PNG, 'report.pdf', {}, 'application/pdf'),
    status: 201,
    events: { create: 1 },
    contains: ['"mimeType":"image/png"'],
    check: (res) => {
      expect(res.body.doc.filename).toMatch(/^report-[a-z0-9]{10}\.png$/);
    },
  },
  {
    name: 'a PDF (allowed by default) has no width, height or sizes',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(pdf(), 'terms.pdf'),
    status: 201,
    events: { create: 1 },
    contains: ['"mimeType":"application/pdf"', '"width":null', '"height":null', '"sizes":{}'],
  },
  {
    name: 'a text file named .png is a 415',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(Buffer.from('hello, not an image'), 'evil.png', {}, 'image/png'),
    status: 415,
    contains: ['"field":"file"', 'could not be recognised from its contents'],
    events: {},
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'an SVG (script inside) is a 415',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(svg(), 'logo.svg', {}, 'image/svg+xml'),
    status: 415,
    contains: ['"field":"file"', 'could not be recognised from its contents'],
    events: {},
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'an SVG with an XML declaration is a 415 too',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(Buffer.concat([Buffer.from('<?xml version="1.0"?>'), svg()]), 'logo.svg'),
    status: 415,
    contains: ['"field":"file"', 'Files of type application/xml are not allowed'],
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'a type outside upload.mimeTypes (zip) is a 415',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(Buffer.from('504b0304140000000800' + '00'.repeat(40), 'hex'), 'a.zip'),
    status: 415,
    contains: ['"field":"file"', 'Files of type application/zip are not allowed'],
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'an image over the pixel limit (decompression bomb) is a 400 and leaves nothing',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(hugeDimensionPng(), 'bomb.png'),
    status: 400,
    contains: ['pixels', '"field":"file"'],
    events: {},
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'an empty file is a 400',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(new Uint8Array(0), 'empty.png'),
    status: 400,
    contains: ['empty', '"field":"file"'],
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'a form without a file part is a 400 naming "file"',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...noFile,
    status: 400,
    contains: ['"field":"file"', 'The upload has no part \\"file\\".'],
  },
  {
    name: 'two parts named file is a 400',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...twoFiles,
    status: 400,
    contains: ['"field":"file"', 'Send one file per upload'],
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'a file in another part is a 400 naming that part',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...otherFilePart,
    status: 400,
    contains: ['"field":"alt"', 'Only the part \\"file\\" may hold a file'],
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'a part named file without a file name is still the file: text is a 415',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...fileAsText,
    status: 415,
    contains: ['"field":"file"', 'could not be recognised from its contents'],
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'a part named file without a file name is still the file: a PNG is stored as "file-…"',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...pngAsText,
    status: 201,
    events: { create: 1 },
    contains: ['"alt":"no file name"', '"filename":"file-'],
  },
  {
    name: 'control characters in the part header are accepted and removed from both names',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...controlName,
    status: 201,
    events: { create: 1 },
    check: (res) => {
      expect(res.body.doc.originalName).toBe('tabherebell.png');
      expect(res.body.doc.filename).toMatch(/^tabherebell-[a-z0-9]{10}\.png$/);
    },
  },
  {
    name: 'UTF-8 names are kept as originalName and made ASCII in the stored name',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...utf8Name,
    status: 201,
    events: { create: 1 },
    check: (res) => {
      expect(res.body.doc.originalName).toBe('Crème brûlée 日本.png');
      expect(res.body.doc.filename).toMatch(/^Creme-brulee-[a-z0-9]{10}\.png$/);
    },
  },
  {
    name: 'filename* (RFC 8187) wins over filename; a slash in it never reaches the stored name',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...extendedName,
    status: 201,
    events: { create: 1 },
    check: (res) => {
      expect(res.body.doc.originalName).toBe('naïve / plan.png');
      expect(res.body.doc.filename).toMatch(/^plan-[a-z0-9]{10}\.png$/);
    },
  },
  {
    name: 'quotes sent as %22 (HTML form encoding) are decoded in originalName',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...quotedName,
    status: 201,
    events: { create: 1 },
    check: (res) => {
      expect(res.body.doc.originalName).toBe('say "hi".png');
      expect(res.body.doc.filename).toMatch(/^say-hi-[a-z0-9]{10}\.png$/);
    },
  },
  {
    name: 'multipart without a boundary is a 400',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...noBoundary,
    status: 400,
    contains: ['"errors"', 'the Content-Type has no boundary'],
    events: { '*': 0 },
  },
  {
    name: 'a truncated multipart body is a 400 and leaves nothing',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...truncated,
    status: 400,
    contains: ['"errors"', 'it ended before the closing boundary'],
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'a JSON body is a 400 naming "file"',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: { alt: 'x', filename: 'x.png' },
    status: 400,
    contains: ['"field":"file"', 'Send the upload as multipart/form-data'],
  },
  {
    name: 'an empty file name is stored as "file-<random>"',
    method: 'POST',
    url: '/media',
    as: 'editor',
    ...emptyName,
    status: 201,
    events: { create: 1 },
    contains: ['"originalName":null'],
    check: (res) => {
      expect(res.body.doc.filename).toMatch(/^file-[a-z0-9]{10}\.png$/);
    },
  },
  {
    name: 'a 1,000-character name is kept as originalName but bounded in the stored name',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(PNG, `${'x'.repeat(996)}.png`),
    status: 201,
    events: { create: 1 },
    check: (res) => {
      expect(res.body.doc.originalName).toHaveLength(1000);
      expect(res.body.doc.filename.length).toBeLessThanOrEqual(80);
      expect(res.body.doc.filename).toMatch(/^x+-[a-z0-9]{10}\.png$/);
    },
  },
  {
    name: 'separators, dots, control and non-ASCII characters never reach the stored name',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(PNG, '..\\..//etc/pass\u0001wd Café\u0000 ..png'),
    status: 201,
    events: { create: 1 },
    check: (res) => {
      expect(res.body.doc.filename).toMatch(/^passwd-Cafe-[a-z0-9]{10}\.png$/);
      expect(res.body.doc.originalName).not.toContain('\u0000');
    },
  },
  {
    name: 'a name of only dots and slashes becomes "file"',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(PNG, '../..'),
    status: 201,
    events: { create: 1 },
    check: (res) => {
      expect(res.body.doc.filename).toMatch(/^file-[a-z0-9]{10}\.png$/);
    },
  },
  {
    name: 'a part naming an upload field is a 400 naming it',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(PNG, 'a.png', { filename: '../../x.png' }),
    status: 400,
    contains: ['"field":"filename"', 'is set by the upload and cannot be sent'],
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'a _payload part carries fields as JSON',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(PNG, 'p.png', { _payload: JSON.stringify({ alt: 'from payload' }) }),
    status: 201,
    events: { create: 1 },
    contains: ['"alt":"from payload"'],
  },
  {
    name: 'a _payload that is not JSON is a 400',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(PNG, 'p.png', { _payload: '{nope' }),
    status: 400,
    contains: ['"field":"_payload"', 'is not valid JSON'],
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'nobody logged in is a 401',
    method: 'POST',
    url: '/media',
    body: () => form(PNG, 'a.png'),
    status: 401,
    contains: ['"errors"', 'You must be logged in'],
    events: {},
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'a cookie session without the CSRF token is a 403',
    method: 'POST',
    url: '/media',
    as: 'cookie:editor',
    headers: { 'x-csrf-token': 'wrong' },
    body: () => form(PNG, 'a.png'),
    status: 403,
    contains: ['"errors"', 'Missing or invalid CSRF token.'],
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'a cookie session with the CSRF token uploads',
    method: 'POST',
    url: '/media',
    as: 'cookie:editor',
    body: () => form(PNG, 'a.png'),
    status: 201,
    events: { create: 1 },
    contains: ['"originalName":"a.png"', '"mimeType":"image/png"'],
  },
  {
    name: 'a file over upload.maxFileSize is a 413 and leaves nothing',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(pdf(LIMIT), 'big.pdf'),
    status: 413,
    contains: ['"errors"', '"field":"file"', 'larger than the limit of 65536 bytes'],
    events: {},
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'a file of exactly upload.maxFileSize is accepted',
    method: 'POST',
    url: '/media',
    as: 'editor',
    body: () => form(pdf(LIMIT - pdf().length), 'edge.pdf'),
    status: 201,
    events: { create: 1 },
    contains: [`"filesize":${LIMIT}`],
  },
  {
    name: 'a Content-Length far over the limit is a 413 before the body is read',
    method: 'POST',
    url: '/media',
    as: 'editor',
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
    body: () => new Blob([new Uint8Array(LIMIT * 40)]),
    status: 413,
    contains: ['"field":"file"', 'larger than the limit of 65536 bytes'],
    check: (_r, t) => nothingStored(t),
  },
  {
    name: 'the list of media is public',
    method: 'GET',
    url: '/media',
    status: 200,
    contains: ['"totalDocs":1', '"originalName":"seeded.png"', '"url":"/api/cms/media/file/'],
  },
  {
    name: 'one media document is public',
    method: 'GET',
    url: () => `/media/${seeded.media}`,
    status: 200,
    contains: ['"originalName":"seeded.png"', '"url"'],
    check: (res) => expect(res.body.id).toBe(seeded.media),
  },
  {
    name: 'PATCH changes alt',
    method: 'PATCH',
    url: () => `/media/${seeded.media}`,
    as: 'editor',
    body: { alt: 'New text' },
    status: 200,
    contains: ['"alt":"New text"'],
    events: { update: 1 },
  },
  {
    name: 'PATCH of filename is a 400 naming it',
    method: 'PATCH',
    url: () => `/media/${seeded.media}`,
    as: 'editor',
    body: { filename: 'other.png' },
    status: 400,
    contains: ['"field":"filename"', 'is set by the upload and cannot be changed'],
    events: {},
  },
  {
    name: 'PATCH of sizes is a 400 naming it',
    method: 'PATCH',
    url: () => `/media/${seeded.media}`,
    as: 'editor',
    body: { sizes: {} },
    status: 400,
    contains: ['"field":"sizes"', 'is set by the upload and cannot be changed'],
  },
  {
    name: 'PATCH of mimeType is a 400 naming it',
    method: 'PATCH',
    url: () => `/media/${seeded.media}`,
    as: 'editor',
    body: { mimeType: 'text/html' },
    status: 400,
    contains: ['"field":"mimeType"', 'is set by the upload and cannot be changed'],
  },
  {
    name: 'PATCH without login is a 401',
    method: 'PATCH',
    url: () => `/media/${seeded.media}`,
    body: { alt: 'x' },
    status: 401,
    contains: ['"errors"', 'You must be logged in'],
    events: { '*': 0 },
  },
  {
    name: 'an upload field links a media document',
    method: 'POST',
    url: '/posts',
    body: () => ({ title: 'With cover', cover: seeded.media }),
    status: 201,
    events: { create: 1 },
    contains: ['"cover":{"id":', '"originalName":"seeded.png"', '"url":"/api/cms/media/file/'],
    check: (res) => expect(res.body.doc.cover.id).toBe(seeded.media),
  },
  {
    name: 'upload fields populate with depth',
    method: 'GET',
    url: () => `/posts/${seeded.post}?depth=1`,
    status: 200,
    contains: ['"cover":{"id":', '"mimeType":"image/png"', '"sizes":{'],
    check: (res) => expect(res.body.cover.id).toBe(seeded.media),
  },
  {
    name: 'depth=0 gives the media id',
    method: 'GET',
    url: () => `/posts/${seeded.post}?depth=0`,
    status: 200,
    contains: ['"cover":'],
    check: (res) => expect(res.body.cover).toBe(seeded.media),
  },
  {
    name: 'an upload field naming no media is a 400',
    method: 'POST',
    url: '/posts',
    body: { title: 'x', cover: 999 },
    status: 400,
    contains: ['"field":"cover"', 'No media document with id 999.'],
  },
  {
    name: 'deleting a media document deletes its file and every size',
    method: 'DELETE',
    url: () => `/media/${deletedId}`,
    as: 'editor',
    status: 200,
    events: { delete: 1 },
    // An upload of its own: the seeded one is a post's cover.
    setup: async (t) => {
      const doc = await upload(t, 'doomed.png');
      deletedId = doc.id;
      deleted = [doc.filename, ...Object.values(doc.sizes).map((s: any) => s.filename)];
      for (const f of deleted) expect(fs.existsSync(path.join(uploads(t), f))).toBe(true);
    },
    contains: ['"originalName":"doomed.png"', 'Deleted successfully.'],
    check: (_res, t) => {
      for (const f of deleted) expect(fs.existsSync(path.join(uploads(t), f))).toBe(false);
      expect(deleted).toHaveLength(4);
    },
  },
  {
    name: 'a deleted document is a 404',
    method: 'GET',
    url: () => `/media/${deletedId}`,
    setup: async (t) => {
      deletedId = (await upload(t, 'gone.png')).id;
      const del = await t.request('DELETE', `/media/${deletedId}`, { token: (await t.session('editor')).token });
      expect(del.status).toBe(200);
    },
    status: 404,
    contains: ['"errors"', 'Document not found.'],
    events: { '*': 0 },
  },
];

runScenarios('POST /media', config, rows, { seed });

describe('POST /media, more', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      upload: { imageSizes: [{ name: 'thumb', width: 16 }] },
      serverURL: 'https://cms.example.com/',
    });
  });
  afterAll(() => t.stop());

  test('concurrent uploads of the same name get distinct stored names, all stored', async () => {
    const { token } = await t.user('editor');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => t.request('POST', '/media', { body: form(PNG, 'same.png'), token })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const names = results.map((r) => r.body.doc.filename);
    expect(new Set(names).size).toBe(8);
    for (const name of names) expect(fs.readFileSync(path.join(t.dir, 'uploads', name))).toEqual(PNG);
    expect(filesIn(path.join(t.dir, 'uploads', '.incoming'))).toEqual([]);
  });

  test('serverURL makes url and size urls absolute', async () => {
    const { token } = await t.user('editor');
    const res = await t.request('POST', '/media', { body: form(PNG, 'abs.png'), token });
    expect(res.body.doc.url).toBe(`https://cms.example.com/api/cms/media/file/${res.body.doc.filename}`);
    expect(res.body.doc.sizes.thumb.url).toStartWith('https://cms.example.com/api/cms/media/file/abs-');
  });

  test('deleting a media document goes ahead when storage fails, and the leftover is logged', async () => {
    const { token } = await t.user('editor');
    const res = await t.request('POST', '/media', { body: form(PNG, 'stuck.png'), token });
    const warnings: string[] = [];
    const storage = t.cms.storage;
    const log = t.cms.log;
    t.cms.log = { ...log, warn: (...a: unknown[]) => warnings.push(a.join(' ')) };
    t.cms.storage = {
      ...storage,
      delete: async () => {
        throw new Error('disk on fire');
      },
    };
    try {
      const del = await t.request('DELETE', `/media/${res.body.doc.id}`, { token });
      expect(del.status).toBe(200);
      expect((await t.request('GET', `/media/${res.body.doc.id}`)).status).toBe(404);
      expect(warnings.join('\n')).toContain(res.body.doc.filename);
      expect(warnings.join('\n')).toContain('disk on fire');
      expect(warnings).toHaveLength(2); // the original and its one size
    } finally {
      t.cms.storage = storage;
      t.cms.log = log;
    }
  });

  test('a failed store removes what was already stored', async () => {
    const { token } = await t.user('editor');
    const before = filesIn(path.join(t.dir, 'uploads'));
    const storage = t.cms.storage;
    let puts = 0;
    t.cms.storage = {
      ...storage,
      put: async (key, body, o) => {
        if (++puts === 2) throw new Error('bucket full');
        return storage.put(key, body, o);
      },
    };
    try {
      const res = await t.request('POST', '/media', { body: form(PNG, 'half.png'), token });
      expect(res.status).toBe(500);
      expect(filesIn(path.join(t.dir, 'uploads'))).toEqual(before);
    } finally {
      t.cms.storage = storage;
    }
  });

  test('a project media collection can narrow create access (403) and add fields', async () => {
    const p = await startTestServer({
      collections: [
        {
          slug: 'media',
          access: { create: ({ user }) => user?.role === 'admin' },
          fields: [
            { name: 'credit', type: 'text' },
            { name: 'rank', type: 'number' },
            { name: 'featured', type: 'checkbox' },
          ],
        },
      ],
    });
    try {
      const editor = await p.user('editor');
      const admin = await p.user('admin');
      expect((await p.request('POST', '/media', { body: form(PNG, 'a.png'), token: editor.token })).status).toBe(403);
      expect(filesIn(path.join(p.dir, 'uploads'))).toEqual([]);
      const ok = await p.request('POST', '/media', {
        body: form(PNG, 'a.png', { credit: 'Jo', rank: '3', featured: 'true', alt: 'x' }),
        token: admin.token,
      });
      expect(ok.status).toBe(201);
      expect(ok.body.doc).toMatchObject({ credit: 'Jo', rank: 3, featured: true, alt: 'x' });
      const bad = await p.request('POST', '/media', { body: form(PNG, 'a.png', { rank: 'many' }), token: admin.token });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe('rank');
      const patched = await p.request('PATCH', `/media/${ok.body.doc.id}`, {
        body: { credit: 'Al' },
        token: admin.token,
      });
      expect(patched.body.doc.credit).toBe('Al');
    } finally {
      await p.stop();
    }
  });
});

describe('POST /media, interrupted and streamed', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({});
  });
  afterAll(() => t.stop());
  const staged = () => filesIn(path.join(t.dir, 'uploads', '.incoming'));

  test('a streamed body (no Content-Length) over the 10 MB default is a 413 and leaves nothing', async () => {
    const { token } = await t.user('editor');
    const { streamedUpload } = await import('../support/media-fixtures.ts');
    const upload = streamedUpload(12 * 1024 * 1024);
    const res = await fetch(`${t.api}/media`, {
      method: 'POST',
      body: upload.body,
      duplex: 'half',
      headers: { 'content-type': upload.contentType, authorization: `Bearer ${token}` },
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).errors[0].field).toBe('file');
    expect(filesIn(path.join(t.dir, 'uploads'))).toEqual([]);
  });

  test('a client that goes away mid-upload leaves no staged file', async () => {
    const { token } = await t.user('editor');
    const controller = new AbortController();
    let sent = 0;
    let sawStaged = 0;
    const head = rawMultipart([{ name: 'file', filename: 'slow.pdf', data: pdf() }]);
    const prefix = head.body.subarray(0, head.body.length - 60);
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent === 0) c.enqueue(prefix);
        else c.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        if (++sent === 20) {
          await Bun.sleep(50);
          sawStaged = staged().length;
          controller.abort();
        }
        await Bun.sleep(5);
      },
    });
    await fetch(`${t.api}/media`, {
      method: 'POST',
      body,
      duplex: 'half',
      signal: controller.signal,
      headers: { 'content-type': head.contentType, authorization: `Bearer ${token}` },
    } as RequestInit).catch(() => null);
    for (let i = 0; i < 50 && staged().length > 0; i++) await Bun.sleep(20);
    await Bun.sleep(100);
    expect(sawStaged).toBe(1);
    expect(staged()).toEqual([]);
    expect((await t.request('GET', '/media')).body.totalDocs).toBe(0);
  });

  test('staged files left by a crash are swept when older than an hour (by cms.clock), newer ones kept', async () => {
    const incoming = path.join(t.dir, 'uploads', '.incoming');
    fs.writeFileSync(path.join(incoming, 'old.part'), 'x');
    fs.writeFileSync(path.join(incoming, 'new.part'), 'x');
    const ago = (ms: number) => new Date(t.clock.now() - ms);
    fs.utimesSync(path.join(incoming, 'old.part'), ago(2 * 3600_000), ago(2 * 3600_000));
    fs.utimesSync(path.join(incoming, 'new.part'), ago(1800_000), ago(1800_000));
    await sweepUploadLeftovers(t.cms);
    expect(staged()).toEqual(['new.part']);
    fs.rmSync(path.join(incoming, 'new.part'));
  });
});
