/**
 * Reads a `.tar.gz` as it streams: each entry's body is handed over chunk by chunk, never whole, and must
 * be read (or is skipped) before the next entry arrives. Understands what tar-write.ts writes (ustar
 * files, PAX `path` records) and skips other entry types; gzip's own checksum catches a damaged stream.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { BLOCK } from './tar-write.ts';

export type TarEntry = { name: string; size: number; body: AsyncIterable<Uint8Array> };

export async function* readTarGz(file: string): AsyncGenerator<TarEntry> {
  const gunzip = zlib.createGunzip();
  const input = fs.createReadStream(file);
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const bytes = byteReader(gunzip);
  let longName: string | null = null;
  try {
    while (true) {
      const block = await bytes.exactly(BLOCK);
      if (block.length < BLOCK) throw new Error('the archive ends in the middle of an entry');
      if (block.every((byte) => byte === 0)) return;
      const size = parseInt(text(block, 124, 12).trim() || '0', 8);
      const type = text(block, 156, 1);
      if (!Number.isSafeInteger(size) || size < 0) throw new Error('the archive has an entry of unreadable size');
      const blocks = size + ((BLOCK - (size % BLOCK)) % BLOCK);
      if (type === 'x') {
        const record = Buffer.from(await bytes.exactly(blocks))
          .subarray(0, size)
          .toString('utf8');
        longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(record)?.[1] ?? null;
        continue;
      }
      const name = longName ?? text(block, 0, 100);
      longName = null;
      if (type !== '0' && type !== '\0' && type !== '') {
        await drain(bytes.chunks(blocks));
        continue;
      }
      const body = bytes.chunks(size);
      yield { name, size, body };
      await drain(body);
      await drain(bytes.chunks(blocks - size));
    }
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

function text(block: Uint8Array, start: number, length: number): string {
  const field = Buffer.from(block.subarray(start, start + length));
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

async function drain(chunks: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const _ of chunks);
}

/** Exact reads over a stream of chunks of any size. A `chunks(n)` iterator resumes where a half-read one stopped. */
function byteReader(stream: AsyncIterable<Uint8Array>) {
  const source = stream[Symbol.asyncIterator]();
  let pending: Uint8Array = new Uint8Array(0);
  const next = async (): Promise<boolean> => {
    const { value, done } = await source.next();
    if (done) return false;
    pending = pending.length ? Buffer.concat([pending, value]) : value;
    return true;
  };
  let current: { left: number } | null = null;
  return {
    async exactly(n: number): Promise<Uint8Array> {
      while (pending.length < n) if (!(await next())) break;
      const out = pending.subarray(0, n);
      pending = pending.subarray(out.length);
      return out;
    },
    chunks(n: number): AsyncIterable<Uint8Array> {
      const state = (current = { left: n });
      return {
        async *[Symbol.asyncIterator]() {
          while (state.left > 0) {
            if (current !== state) throw new Error('a tar entry was read after the next one began');
            if (pending.length === 0 && !(await next())) throw new Error('the archive ends in the middle of an entry');
            const out = pending.subarray(0, Math.min(state.left, pending.length));
            pending = pending.subarray(out.length);
            state.left -= out.length;
            yield out;
          }
        },
      };
    },
  };
}
