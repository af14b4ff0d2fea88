/**
 * Reads `POST /media` (multipart/form-data) as it streams in: the `file` part goes straight to a staged
 * file under the size limit, text parts become fields. `request.formData()` would buffer the whole body
 * in memory; busboy parses it chunk by chunk with backpressure (docs/dependencies.md).
 */
import busboy from 'busboy';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { APIError, badRequest } from '../errors.ts';
import { removeQuietly, stageStream, tooLarge, type StagedFile, type UploadLimits } from './staging.ts';

/** Room for the multipart framing and the text parts on top of the file when checking Content-Length. */
export const FORM_ALLOWANCE = 1024 * 1024;
const FIELD_LIMITS = { fields: 100, fieldSize: 256 * 1024, parts: 102, headerPairs: 100 };

export type ReceivedForm = { file: StagedFile; form: Record<string, string> };

export async function receiveMultipart(request: Request, limits: UploadLimits): Promise<ReceivedForm> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw badRequest('Send the upload as multipart/form-data with the file in the part "file".', 'file');
  }
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limits.maxFileSize + FORM_ALLOWANCE) throw tooLarge(limits.maxFileSize);
  if (!request.body) throw badRequest('The upload has no part "file".', 'file');

  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', limits: { ...FIELD_LIMITS, files: 2, fileSize: limits.maxFileSize + 1 } });
  } catch {
    throw badRequest('The multipart/form-data body has no boundary.', 'file');
  }
  return parseForm(request.body, parser, limits);
}

function parseForm(body: ReadableStream<Uint8Array>, parser: busboy.Busboy, limits: UploadLimits): Promise<ReceivedForm> {
  const reader = body.getReader();
  const stop = new AbortController();
  const fields: Record<string, string> = {};
  let staged: Promise<StagedFile> | null = null;

  return new Promise<ReceivedForm>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (stop.signal.aborted) return;
      stop.abort();
      reader.cancel().catch(() => {});
      parser.destroy();
      staged?.then((file) => removeQuietly(file.path), () => {});
      reject(error instanceof APIError ? error : badRequest('The multipart/form-data body is malformed.'));
    };

    parser.on('file', (name: string, stream: Readable, info: busboy.FileInfo) => {
      if (name !== 'file') {
        stream.resume();
        return fail(badRequest(`Only the part "file" may hold a file; "${name}" does too.`, name));
      }
      if (staged) {
        stream.resume();
        return fail(badRequest('Send one file per upload: the part "file" appears more than once.', 'file'));
      }
      staged = stageStream(stream, info.filename ?? '', limits);
      staged.catch(fail);
    });
    parser.on('field', (name: string, value: string, info: busboy.FieldInfo) => {
      if (info.valueTruncated) return fail(badRequest(`The part "${name}" is too long.`, name));
      if (name === 'file') return fail(badRequest('The part "file" must be a file (with a filename).', 'file'));
      fields[name] = value;
    });
    parser.on('partsLimit', () => fail(badRequest('The upload has too many parts.')));
    parser.on('fieldsLimit', () => fail(badRequest('The upload has too many parts.')));
    parser.on('filesLimit', () => fail(badRequest('Send one file per upload.', 'file')));
    parser.on('error', fail);
    parser.on('close', () => {
      if (stop.signal.aborted) return;
      if (!staged) return fail(badRequest('The upload has no part "file".', 'file'));
      staged.then((file) => (stop.signal.aborted ? removeQuietly(file.path) : resolve({ file, form: fields })), fail);
    });

    pump(reader, parser, stop.signal).catch(fail);
  });
}

/** Feeds the request body to the parser, waiting whenever it (or the file being written) is behind. */
async function pump(reader: ReadableStreamDefaultReader<Uint8Array>, parser: busboy.Busboy, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const { done, value } = await reader.read();
    if (signal.aborted) return;
    if (done) {
      parser.end();
      return;
    }
    if (!parser.write(value)) await once(parser, 'drain', { signal }).catch(() => {});
  }
}
