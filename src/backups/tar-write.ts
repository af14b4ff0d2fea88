/**
 * A streamed `.tar.gz` writer: entries go in one after another, each body streamed through gzip to the
 * file with backpressure, so memory stays flat whatever the size. The tar is POSIX ustar; names longer
 * than ustar's 100 bytes get a PAX `path` record before them (stored upload names reach ~210).
 * Bun.Archive builds a whole archive from in-memory contents, which is what a backup must never do.
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import zlib from 'node:zlib';

export const BLOCK = 512;

export type TarWriter = {
  /** Adds one entry of exactly `size` bytes; answers the sha256 (hex) of its body. */
  add(name: string, size: number, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<string>;
  /** Finishes the archive and closes the file. */
  close(): Promise<void>;
  /** Stops writing after a failure; the caller removes the file. */
  destroy(): void;
};

export function writeTarGz(file: string, options: { level?: number } = {}): TarWriter {
  const out = fs.createWriteStream(file, { mode: 0o600 });
  // Level 1: uploads (images, PDFs) are compressed already and gain nothing from more effort; the
  // database still shrinks well. More effort would mostly cost CPU the server needs meanwhile.
  const gzip = zlib.createGzip({ level: options.level ?? 1 });
  gzip.pipe(out);
  let failure: Error | null = null;
  const failed = new Promise<never>((_, reject) => {
    for (const stream of [gzip, out]) stream.on('error', (error) => reject((failure ??= error)));
  });
  failed.catch(() => {});

  const write = async (chunk: Uint8Array) => {
    if (failure) throw failure;
    if (!gzip.write(chunk)) await Promise.race([once(gzip, 'drain'), failed]);
  };

  return {
    async add(name, size, body) {
      if (Buffer.byteLength(name) > 100) await write(paxHeader(name));
      await write(header(name, size, '0'));
      const hash = new Bun.CryptoHasher('sha256');
      let written = 0;
      for await (const chunk of body) {
        written += chunk.byteLength;
        if (written > size) throw new Error(`${name} grew while it was being archived`);
        hash.update(chunk);
        await write(chunk);
      }
      if (written !== size)
        throw new Error(`${name} changed while it was being archived (${written} of ${size} bytes)`);
      await write(padding(size));
      return hash.digest('hex');
    },
    async close() {
      await write(new Uint8Array(BLOCK * 2));
      gzip.end();
      await finished(out);
      if (failure) throw failure;
    },
    destroy() {
      gzip.destroy();
      out.destroy();
    },
  };
}

export const padding = (size: number) => new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);

function header(name: string, size: number, type: '0' | 'x'): Uint8Array {
  const block = Buffer.alloc(BLOCK);
  block.write(name.slice(0, 100), 0, 100, 'utf8');
  block.write('0000600\0', 100); // mode
  block.write('0000000\0', 108); // uid
  block.write('0000000\0', 116); // gid
  block.write(size.toString(8).padStart(11, '0') + '\0', 124); // ustar's 12-byte octal: up to 8 GiB
  block.write(
    Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, '0') + '\0',
    136,
  );
  block.write('        ', 148); // checksum counts as spaces while it is computed
  block.write(type, 156);
  block.write('ustar\u000000', 257);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return block;
}

/** A PAX extended header carrying the full `path`; each record is "<length> path=<name>\n", length counting itself. */
function paxHeader(name: string): Uint8Array {
  const text = ` path=${name}\n`;
  let length = Buffer.byteLength(text);
  length += String(length + String(length).length).length;
  const record = Buffer.from(`${length}${text}`);
  return Buffer.concat([header('PaxHeader', record.length, 'x'), record, padding(record.length)]);
}
