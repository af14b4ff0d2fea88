/** The Local API's upload() runs the same operation as POST /media: same checks, same limits, same access when asked. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { getCMS, type LocalAPI } from '../../src/local.ts';
import { quietLog, tempDir } from '../harness.ts';
import { filesIn, png } from '../support/media-fixtures.ts';

const PNG = await png(40, 20);
let cms: LocalAPI;
let dir: string;

beforeAll(async () => {
  dir = tempDir('cms-local-upload-');
  cms = await getCMS({
    config: { database: path.join(dir, 'data/cms.db'), upload: { maxFileSize: 4096, dir: path.join(dir, 'files') } },
    rootDir: dir,
    log: quietLog,
  });
});
afterAll(async () => {
  await cms.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const status = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (e) => `${e.status ?? e.message}${e.field ? ` ${e.field}` : ''}`,
  );

describe('Local API upload()', () => {
  test('stores into upload.dir and returns the document', async () => {
    const doc = await cms.upload({ file: new Blob([PNG as Uint8Array<ArrayBuffer>]), data: { alt: 'blob' } });
    expect(doc).toMatchObject({
      alt: 'blob',
      mimeType: 'image/png',
      width: 40,
      height: 20,
      url: `/api/cms/media/file/${doc.filename}`,
    });
    expect(doc.filename).toMatch(/^file-[a-z0-9]{10}\.png$/);
    expect(fs.existsSync(path.join(dir, 'files', doc.filename as string))).toBe(true);
  });

  test('refuses what REST refuses', async () => {
    expect(await status(cms.upload({ file: { data: new Uint8Array(5000), name: 'big.png' } }))).toBe('413 file');
    expect(await status(cms.upload({ file: { data: new TextEncoder().encode('text'), name: 'a.png' } }))).toBe(
      '415 file',
    );
    expect(await status(cms.upload({ file: { data: new Uint8Array(0), name: 'a.png' } }))).toBe('400 file');
    expect(await status(cms.upload({ file: path.join(dir, 'missing.png') }))).toBe('400 file');
    expect(await status(cms.upload({ file: 42 as never }))).toBe('400 file');
    expect(await status(cms.upload({ file: { data: PNG, name: 'a.png' }, data: { mimeType: 'text/html' } }))).toBe(
      '400 mimeType',
    );
    const big = path.join(dir, 'big.bin');
    fs.writeFileSync(big, new Uint8Array(5000));
    expect(await status(cms.upload({ file: big }))).toBe('413 file');
    expect(filesIn(path.join(dir, 'files')).filter((f) => f.startsWith('.incoming'))).toEqual([]);
  });

  test('access applies when asked: no user is a 401, a user may upload', async () => {
    expect(await status(cms.upload({ file: { data: PNG, name: 'a.png' }, overrideAccess: false }))).toBe('401');
    const user = await cms.create({
      collection: 'users',
      data: { email: 'u@example.com', password: 'password123', role: 'editor' },
    });
    expect(
      await status(cms.upload({ file: { data: PNG, name: 'a.png' }, overrideAccess: false, user: user as never })),
    ).toBe('ok');
  });

  test('create() on media without a file is a 400 pointing to upload', async () => {
    expect(await status(cms.create({ collection: 'media', data: { alt: 'no file' } }))).toBe('400 file');
  });
});
