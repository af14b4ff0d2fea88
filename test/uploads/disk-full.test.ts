/**
 * A disk that fills up during uploads: `cms serve` in its own process, its uploads folder on a 48 MB
 * tmpfs, takes 7 MB uploads until one finds no room. That one is answered 507, and the process keeps
 * serving: reads are 200, more uploads are 507 (several at once included), other writes go on, nothing
 * half-written stays behind, and once space is freed uploads are accepted again.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { startChildServer } from '../support/child-server.ts';
import { filesIn, png, streamedUpload } from '../support/media-fixtures.ts';
import { smallDisk } from '../support/small-disk.ts';

const disk = smallDisk(48);
afterAll(() => disk?.unmount());

const config = (uploads: string, imageSizes: { name: string; width: number }[] = []) => ({
  collections: [
    { slug: 'media', upload: true, fields: [] },
    { slug: 'notes', fields: [{ name: 'title', type: 'text' }] },
  ],
  upload: { dir: uploads, maxFileSize: 20 * 1024 * 1024, imageSizes },
});

describe.skipIf(!disk)('a full disk during uploads (tmpfs)', () => {
  test('the upload that finds no room is 507 and the server keeps serving; room made, uploads work again', async () => {
    const uploads = path.join(disk!.dir, 'uploads');
    const server = await startChildServer(config(uploads));
    const auth = { authorization: `Bearer ${server.token}` };
    const bigUpload = async () => {
      const { body, contentType } = streamedUpload(7 * 1024 * 1024);
      const res = await fetch(`${server.api}/media`, {
        method: 'POST',
        headers: { ...auth, 'content-type': contentType },
        body,
        duplex: 'half',
      } as RequestInit);
      return { status: res.status, body: (await res.json()) as { doc?: { id: number; filename: string } } };
    };
    try {
      const stored: { id: number; filename: string }[] = [];
      let refused: Awaited<ReturnType<typeof bigUpload>> | null = null;
      for (let i = 0; i < 10 && !refused; i++) {
        const answer = await bigUpload();
        if (answer.status === 201) stored.push(answer.body.doc!);
        else refused = answer;
      }
      expect(stored.length).toBeGreaterThan(0);
      expect(refused?.status).toBe(507);
      await Bun.sleep(200); // a rejection left unhandled ends the process soon after the answer

      const read = await fetch(`${server.api}/media?limit=100`, { headers: auth });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { totalDocs: number }).totalDocs).toBe(stored.length);
      const file = await fetch(`${server.api}/media/file/${stored[0].filename}`, { headers: auth });
      expect({ status: file.status, size: (await file.arrayBuffer()).byteLength }).toEqual({
        status: 200,
        size: 7 * 1024 * 1024,
      });
      expect((await Promise.all([1, 2, 3].map(() => bigUpload()))).map((a) => a.status)).toEqual([507, 507, 507]);
      const note = await fetch(`${server.api}/notes`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'still writing' }),
      });
      expect(note.status).toBe(201);
      expect(server.died()).toBeNull();
      // Only the stored files: no staged part of a refused upload.
      expect(filesIn(uploads)).toEqual(stored.map((d) => d.filename).sort());

      const removed = await fetch(`${server.api}/media/${stored.at(-1)!.id}`, { method: 'DELETE', headers: auth });
      expect(removed.status).toBe(200);
      expect((await bigUpload()).status).toBe(201);
      const small = new FormData();
      small.append('file', new File([await png(8, 8)], 'small.png'));
      expect((await fetch(`${server.api}/media`, { method: 'POST', headers: auth, body: small })).status).toBe(201);
      expect(server.died()).toBeNull();
    } finally {
      if (!server.died()) await server.stop();
    }
  }, 120_000);

  test('an image whose sizes find no room is 507, not a bad image, and leaves no file', async () => {
    const uploads = path.join(disk!.dir, 'sized');
    const server = await startChildServer(config(uploads, [{ name: 'large', width: 380 }]));
    const auth = { authorization: `Bearer ${server.token}` };
    // Noise does not compress: the original (about 480 KB) fits in what is left, its large size does not.
    const image = await sharp({
      create: {
        width: 400,
        height: 400,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    const filler = path.join(disk!.dir, 'filler');
    const free = fs.statfsSync(disk!.dir);
    fs.writeFileSync(filler, Buffer.alloc(free.bavail * free.bsize - image.byteLength - 200 * 1024));
    try {
      const body = new FormData();
      body.append('file', new File([image], 'noise.png'));
      const res = await fetch(`${server.api}/media`, { method: 'POST', headers: auth, body });
      const answer = {
        status: res.status,
        message: ((await res.json()) as { errors?: { message: string }[] }).errors?.[0]?.message,
      };
      expect(answer).toEqual({ status: 507, message: expect.stringContaining('no space') });
      expect(filesIn(uploads)).toEqual([]);
      fs.rmSync(filler);
      const again = new FormData();
      again.append('file', new File([image], 'noise.png'));
      expect((await fetch(`${server.api}/media`, { method: 'POST', headers: auth, body: again })).status).toBe(201);
    } finally {
      fs.rmSync(filler, { force: true });
      if (!server.died()) await server.stop();
    }
  }, 60_000);
});
