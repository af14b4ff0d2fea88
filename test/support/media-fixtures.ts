/** Test files made at test time (sharp, hand-built bytes), ways to send them (FormData, raw multipart, streams), and folder listings. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';

export const png = (width = 64, height = 32, background = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

export const jpeg = (width = 64, height = 32) =>
  sharp({
    create: { width, height, channels: 3, background: '#cc6633', noise: { type: 'gaussian', mean: 128, sigma: 30 } },
  })
    .jpeg()
    .toBuffer();

export const pdf = (padding = 0) =>
  Buffer.concat([
    Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n'),
    Buffer.alloc(padding, 0x20),
    Buffer.from('\n%%EOF\n'),
  ]);

export const svg = () =>
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
  );

/**
 * A valid PNG that declares more pixels than the limit (a decompression bomb): 1-bit greyscale rows of
 * zeros deflate to almost nothing, so the file is small while its pixels would need gigabytes.
 */
export function hugeDimensionPng(width = 20_000, height = 20_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const row = Buffer.alloc(1 + Math.ceil(width / 8));
  const deflate = zlib.deflateSync(Buffer.concat(Array.from({ length: 64 }, () => row)), { level: 9 });
  // Only the first rows are present: the header is what matters, and nothing should ever decode it.
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflate),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function form(
  file: Uint8Array | null,
  name: string,
  fields: Record<string, string> = {},
  type = 'application/octet-stream',
): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  if (file) body.append('file', new File([file as Uint8Array<ArrayBuffer>], name, { type }));
  return body;
}

export type RawPart = { name: string; filename?: string; type?: string; data: Uint8Array | string };

/** A multipart body written by hand, for what FormData will not send (empty file names, odd parts). */
export function rawMultipart(parts: RawPart[]): { body: Uint8Array; contentType: string } {
  const boundary = `----cmsTestBoundary${Math.random().toString(36).slice(2)}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.type) head += `Content-Type: ${part.type}\r\n`;
    pieces.push(Buffer.from(`${head}\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: new Uint8Array(Buffer.concat(pieces)), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A multipart upload generated as it is sent (no Content-Length, chunked): `size` bytes of file after a
 * short PDF header, so the type check passes when it gets that far.
 */
export function streamedUpload(
  size: number,
  chunkSize = 256 * 1024,
): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----cmsStream${Math.random().toString(36).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="alt"\r\n\r\nstreamed\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const filler = new Uint8Array(chunkSize).fill(0x20);
  let sent = 9; // the "%PDF-1.7\n" in the head is part of the file
  let stage: 'head' | 'file' | 'tail' | 'done' = 'head';
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stage === 'head') {
        controller.enqueue(new Uint8Array(head));
        stage = 'file';
        return;
      }
      if (stage === 'file') {
        const n = Math.min(chunkSize, size - sent);
        if (n > 0) {
          controller.enqueue(n === chunkSize ? filler : filler.subarray(0, n));
          sent += n;
          return;
        }
        stage = 'tail';
      }
      if (stage === 'tail') {
        controller.enqueue(new Uint8Array(tail));
        stage = 'done';
        return;
      }
      controller.close();
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Every file under a folder (an upload folder's staged ones included), relative to it, sorted; none if it is missing. */
export function filesIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort();
}

/** Every file of a folder with a hash of its bytes, to compare folders exactly. The folder must exist. */
export function fingerprint(dir: string): Record<string, number | bigint> {
  if (!fs.statSync(dir).isDirectory()) throw new Error(`not a folder: ${dir}`);
  return Object.fromEntries(filesIn(dir).map((f) => [f, Bun.hash(fs.readFileSync(path.join(dir, f)))]));
}

/** Uploads `bytes` as `name` into `media` through REST with a bearer token; answers the created document. */
export async function uploadMedia(
  server: { fetch(pathname: string, init?: RequestInit): Promise<Response> },
  token: string,
  bytes: Uint8Array,
  name: string,
): Promise<{ id: number; filename: string }> {
  const res = await server.fetch('/media', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form(bytes, name),
  });
  if (res.status !== 201) throw new Error(`the upload of ${name} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { doc: { id: number; filename: string } }).doc;
}
