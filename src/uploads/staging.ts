/**
 * Arriving uploads are written to a temp file in the staging folder, counting bytes as they come:
 * the moment the count would pass `maxFileSize` the write stops, the partial file is removed and a 413
 * is thrown. Nothing is held in memory beyond the chunk being written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { APIError, badRequest } from '../errors.ts';
import { cleanOriginalName } from './file-names.ts';

/** Where arriving files wait: beside local storage (so storing is a rename), else in the data folder. */
export function stagingDirOf(storage: { stagingDir?: string }, dataDir: string): string {
  return storage.stagingDir ?? path.join(dataDir, 'incoming-uploads');
}

export type UploadLimits = { maxFileSize: number; stagingDir: string };
export type StagedFile = { path: string; size: number; originalName: string };

export const tooLarge = (maxFileSize: number) =>
  new APIError(413, `The file is larger than the limit of ${maxFileSize} bytes.`, 'file');

export function stagingPath(stagingDir: string, suffix = ''): string {
  return path.join(stagingDir, `${randomUUID()}${suffix}.part`);
}

export async function removeQuietly(file: string): Promise<void> {
  await fs.promises.rm(file, { force: true }).catch(() => {});
}

export type StagedWriter = {
  /** Appends a chunk; past the limit it throws the 413 without writing the chunk. */
  write(chunk: Uint8Array): Promise<void>;
  finish(originalName: string): Promise<StagedFile>;
  /** Closes and removes the file (after any failure). */
  discard(): Promise<void>;
};

const FLUSH_BYTES = 256 * 1024;

/**
 * A new staged file, written chunk by chunk and flushed every 256 KB before more is read, so a fast
 * sender waits for the disk. (Bun's FileSink with a flush per chunk keeps memory flat; awaiting
 * fs.promises writes let the process grow by tens of MB over a few hundred MB of upload.)
 */
export async function createStagedWriter(limits: UploadLimits): Promise<StagedWriter> {
  const target = stagingPath(limits.stagingDir);
  fs.closeSync(fs.openSync(target, 'wx', 0o644));
  const sink = Bun.file(target).writer();
  let size = 0;
  let pending = 0;
  let open = true;
  return {
    async write(chunk) {
      if (size + chunk.byteLength > limits.maxFileSize) throw tooLarge(limits.maxFileSize);
      size += chunk.byteLength;
      // A write the sink cannot take at once answers a promise; left alone, its rejection (a full disk)
      // would be unhandled and end the process, so it is awaited here and fails this upload instead.
      const written = sink.write(chunk);
      if (written instanceof Promise) await written;
      pending += chunk.byteLength;
      if (pending >= FLUSH_BYTES) {
        pending = 0;
        await sink.flush();
      }
    },
    async finish(originalName) {
      open = false;
      await sink.end();
      return { path: target, size, originalName: cleanOriginalName(originalName) };
    },
    async discard() {
      // On a full disk `end()` may throw at once as well as reject: either way the file goes.
      if (open) await (async () => sink.end())().catch(() => {});
      open = false;
      await removeQuietly(target);
    },
  };
}

/** Writes a stream to a new staged file; over the limit: 413 and no file left. */
export async function stageStream(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  originalName: string,
  limits: UploadLimits,
): Promise<StagedFile> {
  const writer = await createStagedWriter(limits);
  try {
    for await (const chunk of source) await writer.write(chunk);
    return await writer.finish(originalName);
  } catch (error) {
    await writer.discard();
    throw error;
  }
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
    return stageStream(
      file.stream() as unknown as AsyncIterable<Uint8Array>,
      file instanceof File ? file.name : '',
      limits,
    );
  }
  if (file && typeof file === 'object' && (file.data instanceof Uint8Array || file.data instanceof ArrayBuffer)) {
    const bytes = file.data instanceof Uint8Array ? file.data : new Uint8Array(file.data);
    if (bytes.byteLength > limits.maxFileSize) throw tooLarge(limits.maxFileSize);
    return stageStream([bytes], String(file.name ?? ''), limits);
  }
  throw badRequest('"file" must be a File or Blob, { data, name }, or a path.', 'file');
}
