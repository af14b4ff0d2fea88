/**
 * Arriving uploads are written to a temp file in the staging folder, counting bytes as they come:
 * the moment the count passes `maxFileSize` the write stops, the partial file is removed and a 413 is
 * thrown. Nothing is held in memory beyond the stream's own buffers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { APIError, badRequest } from '../errors.ts';
import { cleanOriginalName } from './file-names.ts';

export type UploadLimits = { maxFileSize: number; stagingDir: string };
export type StagedFile = { path: string; size: number; originalName: string };

export const tooLarge = (maxFileSize: number) => new APIError(413, `The file is larger than the limit of ${maxFileSize} bytes.`, 'file');

export function stagingPath(stagingDir: string, suffix = ''): string {
  return path.join(stagingDir, `${randomUUID()}${suffix}.part`);
}

export async function removeQuietly(file: string): Promise<void> {
  await fs.promises.rm(file, { force: true }).catch(() => {});
}

/** Writes a stream to a new staged file; over the limit: 413 and no file left. */
export async function stageStream(source: Readable | ReadableStream<Uint8Array>, originalName: string, limits: UploadLimits): Promise<StagedFile> {
  const target = stagingPath(limits.stagingDir);
  let size = 0;
  const input = source instanceof Readable ? source : Readable.fromWeb(source as unknown as import('node:stream/web').ReadableStream<Uint8Array>);
  try {
    await pipeline(
      input,
      async function* countBytes(chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          size += chunk.length;
          if (size > limits.maxFileSize) throw tooLarge(limits.maxFileSize);
          yield chunk;
        }
      },
      fs.createWriteStream(target, { flags: 'wx', mode: 0o644 }),
    );
  } catch (error) {
    await removeQuietly(target);
    throw error;
  }
  return { path: target, size, originalName: cleanOriginalName(originalName) };
}

/** What the Local API's `upload` accepts as `file`. */
export type LocalUploadFile = Blob | { data: Uint8Array | ArrayBuffer; name: string } | string;

/** Stages a Local API file (a Blob or File, bytes with a name, or a path on disk) under the same limits as REST. */
export async function stageLocalFile(file: LocalUploadFile, limits: UploadLimits): Promise<StagedFile> {
  if (typeof file === 'string') {
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) throw badRequest(`No file at ${file}.`, 'file');
    if (stat.size > limits.maxFileSize) throw tooLarge(limits.maxFileSize);
    return stageStream(fs.createReadStream(file), path.basename(file), limits);
  }
  if (file instanceof Blob) {
    if (file.size > limits.maxFileSize) throw tooLarge(limits.maxFileSize);
    return stageStream(file.stream(), file instanceof File ? file.name : '', limits);
  }
  if (file && typeof file === 'object' && (file.data instanceof Uint8Array || file.data instanceof ArrayBuffer)) {
    const bytes = file.data instanceof Uint8Array ? file.data : new Uint8Array(file.data);
    if (bytes.byteLength > limits.maxFileSize) throw tooLarge(limits.maxFileSize);
    return stageStream(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), String(file.name ?? ''), limits);
  }
  throw badRequest('"file" must be a File or Blob, { data, name }, or a path.', 'file');
}
