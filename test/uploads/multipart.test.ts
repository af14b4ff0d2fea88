// Runs once (on the SQLite pass): the multipart parser alone; no server.
/** The streaming multipart parser on its own: any chunking gives the same parts; limits hold; nothing is left behind. */
import { afterAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import { receiveMultipart, dispositionParams } from '../../src/uploads/multipart.ts';
import { rawMultipart } from '../support/media-fixtures.ts';
import { tempDir } from '../harness.ts';

const dir = tempDir('cms-multipart-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const limits = { maxFileSize: 4096, stagingDir: dir };

function chunked(bytes: Uint8Array, sizes: () => number): Request {
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const n = Math.max(1, sizes());
      controller.enqueue(bytes.slice(offset, offset + n));
      offset += n;
    },
  });
  return new Request('http://localhost/media', {
    method: 'POST',
    body,
    headers: { 'content-type': '' },
    duplex: 'half',
  } as RequestInit);
}
const withType = (request: Request, contentType: string) =>
  new Request(request, { headers: { 'content-type': contentType } });

const fileBytes = new Uint8Array(3000).map((_, i) => (i * 7 + 13) % 256);
// Bytes that look like a delimiter's start inside the file, to catch partial matches.
fileBytes.set(Buffer.from('\r\n--boundar'), 1000);
const sample = rawMultipart([
  { name: 'alt', data: 'Alt text — ünïcode' },
  { name: 'file', filename: 'pic.bin', type: 'application/octet-stream', data: fileBytes },
  { name: 'caption', data: '' },
]);

describe('receiveMultipart', () => {
  for (const [label, sizes] of [
    ['one chunk', () => 1 << 20],
    ['1-byte chunks', () => 1],
    ['7-byte chunks', () => 7],
    ['random chunks', () => Math.floor(Math.random() * 90)],
  ] as const) {
    test(`reads the same parts from ${label}`, async () => {
      const received = await receiveMultipart(withType(chunked(sample.body, sizes), sample.contentType), limits);
      expect(received.form).toEqual({ alt: 'Alt text — ünïcode', caption: '' });
      expect(received.file.originalName).toBe('pic.bin');
      expect(new Uint8Array(fs.readFileSync(received.file.path))).toEqual(fileBytes);
      fs.rmSync(received.file.path);
    });
  }

  test('two chunks split at every position read the same parts', async () => {
    const small = rawMultipart([
      { name: 'alt', data: 'a' },
      { name: 'file', filename: 'f.bin', data: fileBytes.subarray(990, 1100) },
      { name: 'z', data: 'zz' },
    ]);
    for (let split = 0; split <= small.body.length; split++) {
      const chunks = [small.body.subarray(0, split), small.body.subarray(split)];
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          const next = chunks.shift();
          if (next) c.enqueue(next);
          else c.close();
        },
      });
      const request = new Request('http://localhost/media', {
        method: 'POST',
        body,
        headers: { 'content-type': small.contentType },
        duplex: 'half',
      } as RequestInit);
      const received = await receiveMultipart(request, limits);
      expect({ split, form: received.form }).toEqual({ split, form: { alt: 'a', z: 'zz' } });
      expect(new Uint8Array(fs.readFileSync(received.file.path))).toEqual(fileBytes.subarray(990, 1100));
      fs.rmSync(received.file.path);
    }
  });

  test('a file over the limit is a 413 with no staged file left, in any chunking', async () => {
    const big = rawMultipart([{ name: 'file', filename: 'big.bin', data: new Uint8Array(5000) }]);
    for (const size of [1 << 20, 1, 100]) {
      const error = await receiveMultipart(
        withType(
          chunked(big.body, () => size),
          big.contentType,
        ),
        limits,
      ).catch((e) => e);
      expect(error.status).toBe(413);
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('a part header over 16 KB is a 400 whether it arrives in one chunk or many', async () => {
    const boundary = 'b0undary';
    const header = `Content-Disposition: form-data; name="alt"\r\nX-Padding: ${'p'.repeat(17_000)}`;
    const body = Buffer.from(`--${boundary}\r\n${header}\r\n\r\nvalue\r\n--${boundary}--\r\n`);
    for (const size of [1 << 20, 1000]) {
      const error = await receiveMultipart(
        withType(
          chunked(body, () => size),
          `multipart/form-data; boundary=${boundary}`,
        ),
        limits,
      ).catch((e) => e);
      expect({ size, status: error.status, message: error.message }).toEqual({
        size,
        status: 400,
        message: expect.stringContaining('part header is too long'),
      });
    }
  });

  test('a body cut short is a 400 with no staged file left', async () => {
    const cut = sample.body.subarray(0, sample.body.length - 40);
    const error = await receiveMultipart(
      withType(
        chunked(cut, () => 50),
        sample.contentType,
      ),
      limits,
    ).catch((e) => e);
    expect(error.status).toBe(400);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('a preamble and an epilogue are ignored', async () => {
    const framed = Buffer.concat([Buffer.from('preamble text\r\n'), sample.body, Buffer.from('epilogue')]);
    const received = await receiveMultipart(
      withType(
        chunked(framed, () => 64),
        sample.contentType,
      ),
      limits,
    );
    expect(received.form.alt).toBe('Alt text — ünïcode');
    fs.rmSync(received.file.path);
  });

  test('a quoted boundary works', async () => {
    const quoted = sample.contentType.replace(/boundary=(.*)$/, 'boundary="$1"');
    const received = await receiveMultipart(
      withType(
        chunked(sample.body, () => 33),
        quoted,
      ),
      limits,
    );
    expect(received.file.size).toBe(fileBytes.length);
    fs.rmSync(received.file.path);
  });

  test('too many text bytes is a 400', async () => {
    const many = rawMultipart([
      { name: 'alt', data: 'x'.repeat(600 * 1024) },
      { name: 'file', filename: 'a', data: 'a' },
    ]);
    const error = await receiveMultipart(
      withType(
        chunked(many.body, () => 65536),
        many.contentType,
      ),
      { ...limits, maxFileSize: 10 << 20 },
    ).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.field).toBe('alt');
  });

  test('a part without Content-Disposition is a 400', async () => {
    const text = `--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n`;
    const error = await receiveMultipart(
      withType(
        chunked(Buffer.from(text), () => 1000),
        'multipart/form-data; boundary=b',
      ),
      limits,
    ).catch((e) => e);
    expect(error.status).toBe(400);
  });
});

describe('dispositionParams', () => {
  test('quoted values, escapes, HTML form encoding, semicolons inside quotes', () => {
    expect(dispositionParams(' form-data; name="file"; filename="a;b \\"c\\".png"')).toEqual({
      name: 'file',
      filename: 'a;b "c".png',
    });
    expect(dispositionParams('form-data; name=file; filename="x%22y%0D%0Az.png"')).toEqual({
      name: 'file',
      filename: 'x"y\r\nz.png',
    });
    expect(dispositionParams('attachment; filename="a.png"')).toBeNull();
  });
});
