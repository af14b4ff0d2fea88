/**
 * Focal point, crop and file replacement of media (docs/media.md): every image size shows the crop and is
 * centred on the focal point, proved on an image whose left half is red and right half blue; a new frame
 * makes the sizes again under new names and removes the old files; a multipart PATCH replaces the file.
 */
import { expect } from 'bun:test';
import sharp from 'sharp';
import { runScenarios, type Scenario, type TestServer } from '../harness.ts';
import { form, png } from '../support/media-fixtures.ts';
import type { UserConfig } from '../../src/config/types.ts';

const RED = [255, 0, 0];
const BLUE = [0, 0, 255];
/** 400×200: left half red, right half blue. */
const halves = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#0000ff' } })
  .composite([{ input: { create: { width: 200, height: 200, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
  .png()
  .toBuffer();

const config: UserConfig = {
  upload: {
    imageSizes: [
      { name: 'square', width: 100, height: 100 },
      { name: 'wide', width: 100 },
    ],
  },
};

/**
 * The image every row but the upload works on, made by the seed: `halves` with its focal point on the left
 * (10, 50).
 */
let halvesDoc: any;
const uploadHalves = async (t: TestServer) => {
  const { token } = await t.session('admin');
  const res = await t.request('POST', '/media', {
    token,
    body: form(halves, 'halves.png', { focalX: '10', focalY: '50' }),
  });
  expect(res.status).toBe(201);
  halvesDoc = res.body.doc;
};
const url = () => `/media/${halvesDoc.id}`;
const admin = async (t: TestServer) => (await t.session('admin')).token;

/** The file as the file route serves it: its status, and its bytes when it is there. */
async function fetchFile(t: TestServer, name: string) {
  const res = await t.fetch(`/media/file/${name}`);
  return { status: res.status, bytes: res.status === 200 ? Buffer.from(await res.arrayBuffer()) : null };
}
/** Whether the file route serves the stored file: 200 or 404. */
async function fileStatus(t: TestServer, name: string) {
  return (await fetchFile(t, name)).status;
}
/** The size's pixel dimensions and the colour at (x, y), read back with sharp from what the file route serves. */
async function sample(t: TestServer, name: string, x: number, y: number) {
  const { status, bytes } = await fetchFile(t, name);
  expect(status).toBe(200);
  const meta = await sharp(bytes!).metadata();
  const { data, info } = await sharp(bytes!).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { width: meta.width, height: meta.height, rgb: [data[at], data[at + 1], data[at + 2]] };
}
const sizeFiles = (doc: any) => [doc.sizes.square.filename, doc.sizes.wide.filename];

const rows: Scenario[] = [
  {
    name: 'an upload with a focal point on the left makes a red square',
    as: 'admin',
    method: 'POST',
    url: '/media',
    body: form(halves, 'halves.png', { focalX: '10', focalY: '50' }),
    status: 201,
    events: { create: 1 },
    check: async (res, t) => {
      expect(res.body.doc).toMatchObject({ focalX: 10, focalY: 50, width: 400, height: 200 });
      expect('crop' in res.body.doc).toBe(false);
      expect(await sample(t, res.body.doc.sizes.square.filename, 90, 50)).toEqual({
        width: 100,
        height: 100,
        rgb: RED,
      });
      expect(await sample(t, res.body.doc.sizes.wide.filename, 90, 25)).toMatchObject({
        width: 100,
        height: 50,
        rgb: BLUE,
      });
    },
  },
  {
    name: 'moving the focal point right makes the sizes again, blue, under new names',
    as: 'admin',
    method: 'PATCH',
    url,
    body: { focalX: 90 },
    status: 200,
    events: { update: 1 },
    check: async (res, t) => {
      const old = sizeFiles(halvesDoc);
      expect(res.body.doc.focalX).toBe(90);
      expect(sizeFiles(res.body.doc)).not.toContain(old[0]);
      expect(await sample(t, res.body.doc.sizes.square.filename, 10, 50)).toEqual({
        width: 100,
        height: 100,
        rgb: BLUE,
      });
      for (const name of old) expect(await fileStatus(t, name)).toBe(404);
      expect(await fileStatus(t, res.body.doc.filename)).toBe(200);
    },
  },
  {
    name: 'a crop of the left half applies to every size',
    as: 'admin',
    method: 'PATCH',
    url,
    body: { crop: { x: 0, y: 0, width: 50, height: 100 } },
    status: 200,
    events: { update: 1 },
    check: async (res, t) => {
      expect(res.body.doc.crop).toEqual({ x: 0, y: 0, width: 50, height: 100 });
      expect(await sample(t, res.body.doc.sizes.square.filename, 95, 95)).toEqual({
        width: 100,
        height: 100,
        rgb: RED,
      });
      // The wide size keeps the crop's own 1:1 shape, all red.
      expect(await sample(t, res.body.doc.sizes.wide.filename, 95, 50)).toEqual({
        width: 100,
        height: 100,
        rgb: RED,
      });
    },
  },
  {
    name: 'a crop outside the image is a 400',
    as: 'admin',
    method: 'PATCH',
    url,
    body: { crop: { x: 80, y: 0, width: 50, height: 100 } },
    status: 400,
    contains: ['"field":"crop"', 'crop must be { x, y, width, height } in percent of the image, inside it.'],
  },
  {
    name: 'a focal point over 100 is a 400',
    as: 'admin',
    method: 'PATCH',
    url,
    body: { focalX: 120 },
    status: 400,
    contains: ['"field":"focalX"', 'This value must be at most 100.'],
  },
  {
    name: 'a refused change kept the files',
    as: 'admin',
    method: 'GET',
    url,
    setup: async (t) => {
      const token = await admin(t);
      const bad = [{ crop: { x: 80, y: 0, width: 50, height: 100 } }, { focalX: 120 }];
      for (const body of bad) expect((await t.request('PATCH', url(), { token, body })).status).toBe(400);
    },
    status: 200,
    check: async (res, t) => {
      expect(res.body).toMatchObject({ focalX: 10, focalY: 50 });
      expect(sizeFiles(res.body)).toEqual(sizeFiles(halvesDoc));
      for (const name of sizeFiles(res.body)) expect(await fileStatus(t, name)).toBe(200);
    },
  },
  {
    name: 'changing only alt keeps the sizes',
    as: 'admin',
    method: 'PATCH',
    url,
    body: { alt: 'Halves' },
    status: 200,
    events: { update: 1 },
    check: (res) => {
      expect(res.body.doc.alt).toBe('Halves');
      expect(sizeFiles(res.body.doc)).toEqual(sizeFiles(halvesDoc));
    },
  },
  {
    name: 'a multipart PATCH replaces the file, clears the frame and removes the old files',
    as: 'admin',
    method: 'PATCH',
    url,
    // A crop on top of the focal point, so the whole frame is there to clear.
    setup: async (t) => {
      const body = { crop: { x: 0, y: 0, width: 50, height: 100 } };
      expect((await t.request('PATCH', url(), { token: await admin(t), body })).status).toBe(200);
    },
    body: form(await png(300, 100, '#00ff00'), 'green.png', { alt: 'Green' }),
    status: 200,
    events: { update: 1 },
    check: async (res, t) => {
      const old = [halvesDoc.filename, ...sizeFiles(halvesDoc)];
      expect(res.body.doc).toMatchObject({
        id: halvesDoc.id,
        alt: 'Green',
        width: 300,
        height: 100,
        originalName: 'green.png',
      });
      // A replaced file starts without a frame: the fields are unset, so they are not shown.
      expect(['focalX', 'focalY', 'crop'].filter((name) => name in res.body.doc)).toEqual([]);
      expect(await sample(t, res.body.doc.sizes.square.filename, 50, 50)).toEqual({
        width: 100,
        height: 100,
        rgb: [0, 255, 0],
      });
      for (const name of old) expect(await fileStatus(t, name)).toBe(404);
    },
  },
  {
    name: 'replacing without login is a 401',
    method: 'PATCH',
    url,
    body: form(halves, 'x.png'),
    status: 401,
    contains: ['"errors"', 'You must be logged in'],
    check: async (_res, t) => expect(await fileStatus(t, halvesDoc.filename)).toBe(200),
  },
  {
    name: 'a replacement with an empty file is a 400 and keeps the current file',
    as: 'admin',
    method: 'PATCH',
    url,
    body: form(new Uint8Array(0), 'empty.png'),
    status: 400,
    contains: ['"field":"file"', 'The file is empty.'],
    check: async (_res, t) => expect(await fileStatus(t, halvesDoc.filename)).toBe(200),
  },
];

runScenarios('focal point, crop and file replacement', config, rows, { seed: uploadHalves });
