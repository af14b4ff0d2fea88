/**
 * Reads `POST /media` (multipart/form-data, RFC 7578) as it streams in: the `file` part goes straight to
 * a staged file under the size limit, text parts become fields. `request.formData()` would hold the
 * whole body in memory. A small parser of our own instead of busboy, because busboy turns a file part
 * with an empty file name into a text field (the bytes are lost) and rejects the whole body when a file
 * name holds a control character, which browsers send as is (docs/dependencies.md).
 */
import { APIError, badRequest } from '../errors.ts';
import { faultKind } from '../faults.ts';
import {
  createStagedWriter,
  removeQuietly,
  tooLarge,
  type StagedFile,
  type StagedWriter,
  type UploadLimits,
} from './staging.ts';

/** Room for the framing and the text parts on top of the file, when checking Content-Length up front. */
export const FORM_ALLOWANCE = 1024 * 1024;
const MAX_TEXT_BYTES = FORM_ALLOWANCE / 2;
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_PREAMBLE_BYTES = 64 * 1024;
const MAX_PARTS = 100;
const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

export type ReceivedForm = { file: StagedFile; form: Record<string, string> };

const malformed = (why: string) => badRequest(`The multipart/form-data body is malformed: ${why}.`);

export async function receiveMultipart(request: Request, limits: UploadLimits): Promise<ReceivedForm> {
  const boundary = boundaryOf(request.headers.get('content-type'));
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limits.maxFileSize + FORM_ALLOWANCE) throw tooLarge(limits.maxFileSize);
  if (!request.body) throw badRequest('The upload has no part "file".', 'file');

  const form = new FormReader(boundary, limits);
  const reader = request.body.getReader();
  try {
    let complete = false;
    while (!complete) {
      const { done, value } = await reader.read();
      if (done) break;
      complete = await form.push(value);
    }
    const result = form.result();
    // Whatever follows the closing boundary (an epilogue) is not needed.
    if (complete) reader.cancel().catch(() => {});
    return result;
  } catch (error) {
    await form.discard();
    reader.cancel().catch(() => {});
    // A fault of this machine (a full disk while staging) is not the sender's: it keeps its own answer.
    throw error instanceof APIError || faultKind(error) ? error : malformed('it could not be read');
  }
}

function boundaryOf(contentType: string | null): string {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    throw badRequest('Send the upload as multipart/form-data with the file in the part "file".', 'file');
  }
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  if (!match) throw malformed('the Content-Type has no boundary');
  return match[1] ?? match[2];
}

type Part = { name: string; filename: string | null; writer: StagedWriter | null; text: Buffer[] };

/** A state machine fed chunk by chunk; only a delimiter's length of bytes (or one header block) is ever kept. */
class FormReader {
  private readonly delimiter: Buffer;
  // The body's first delimiter has no CRLF before it; starting with one makes every delimiter look alike.
  private buffer: Buffer = Buffer.from(CRLF);
  private state: 'preamble' | 'delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  private part: Part | null = null;
  private file: StagedFile | null = null;
  private readonly fields: Record<string, string> = {};
  private parts = 0;
  private textBytes = 0;
  private preambleBytes = 0;

  constructor(
    boundary: string,
    private readonly limits: UploadLimits,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  /** Takes the next chunk; true once the closing delimiter has been read. */
  async push(chunk: Uint8Array): Promise<boolean> {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.state === 'body' && this.buffer.length > 0 && bytes.length >= this.delimiter.length) {
      // Most of an upload is here: rather than copy every chunk onto the few bytes held back from the
      // last one, check only whether a delimiter starts in those bytes.
      const joint = Buffer.concat([this.buffer, bytes.subarray(0, this.delimiter.length - 1)]);
      const at = joint.indexOf(this.delimiter);
      if (at === -1 || at >= this.buffer.length) {
        await this.partData(this.buffer);
        this.buffer = bytes;
      } else this.buffer = Buffer.concat([this.buffer, bytes]);
    } else this.buffer = this.buffer.length ? Buffer.concat([this.buffer, bytes]) : bytes;
    while (true) {
      if (this.state === 'done') return true;
      if (!(await this.step())) return false;
    }
  }

  /** One step of the machine; false when it needs more bytes. */
  private async step(): Promise<boolean> {
    const keep = this.delimiter.length - 1;
    switch (this.state) {
      case 'preamble': {
        const at = this.buffer.indexOf(this.delimiter);
        if (at === -1) {
          this.preambleBytes += Math.max(0, this.buffer.length - keep);
          if (this.preambleBytes > MAX_PREAMBLE_BYTES) throw malformed('no boundary was found');
          this.buffer = this.buffer.subarray(Math.max(0, this.buffer.length - keep));
          return false;
        }
        this.buffer = this.buffer.subarray(at + this.delimiter.length);
        this.state = 'delimiter';
        return true;
      }
      case 'delimiter': {
        if (this.buffer.length < 2) return false;
        if (this.buffer[0] === 0x2d && this.buffer[1] === 0x2d) {
          this.state = 'done';
          return true;
        }
        const end = this.buffer.indexOf(CRLF);
        if (end === -1) {
          if (this.buffer.length > 256) throw malformed('a boundary line is too long');
          return false;
        }
        if (!/^[ \t]*$/.test(this.buffer.subarray(0, end).toString('latin1')))
          throw malformed('a boundary line has extra text');
        this.buffer = this.buffer.subarray(end + 2);
        this.state = 'headers';
        return true;
      }
      case 'headers': {
        const noHeaders = this.buffer.length >= 2 && this.buffer[0] === 0x0d && this.buffer[1] === 0x0a;
        const end = noHeaders ? 0 : this.buffer.indexOf(HEADERS_END);
        // The limit holds for the header itself, whether it came in one chunk or across many.
        if ((end === -1 ? this.buffer.length : end) > MAX_HEADER_BYTES) throw malformed('a part header is too long');
        if (end === -1) return false;
        const headers = this.buffer.subarray(0, end).toString('utf8');
        this.buffer = this.buffer.subarray(noHeaders ? 2 : end + 4);
        await this.startPart(headers);
        this.state = 'body';
        return true;
      }
      case 'body': {
        const at = this.buffer.indexOf(this.delimiter);
        if (at === -1) {
          // The last bytes may be the start of a delimiter split across chunks: keep them for the next one.
          const safe = this.buffer.length - keep;
          if (safe > 0) {
            await this.partData(this.buffer.subarray(0, safe));
            this.buffer = this.buffer.subarray(safe);
          }
          return false;
        }
        await this.partData(this.buffer.subarray(0, at));
        this.buffer = this.buffer.subarray(at + this.delimiter.length);
        await this.endPart();
        this.state = 'delimiter';
        return true;
      }
      default:
        return true;
    }
  }

  private async startPart(headerBlock: string): Promise<void> {
    if (++this.parts > MAX_PARTS) throw badRequest('The upload has too many parts.');
    const disposition = headerBlock.split('\r\n').find((line) => /^content-disposition\s*:/i.test(line));
    const params = disposition ? dispositionParams(disposition.slice(disposition.indexOf(':') + 1)) : null;
    if (!params || params.name === undefined) throw malformed('a part has no Content-Disposition name');
    const name = params.name;
    const filename =
      params['filename*'] !== undefined ? decodeExtended(params['filename*']) : (params.filename ?? null);
    if (name === 'file') {
      if (this.file || this.part?.writer)
        throw badRequest('Send one file per upload: the part "file" appears more than once.', 'file');
      this.part = { name, filename, writer: await createStagedWriter(this.limits), text: [] };
      return;
    }
    if (filename !== null) throw badRequest(`Only the part "file" may hold a file; "${name}" does too.`, name);
    this.part = { name, filename: null, writer: null, text: [] };
  }

  private async partData(bytes: Buffer): Promise<void> {
    const part = this.part!;
    if (bytes.length === 0) return;
    if (part.writer) return part.writer.write(bytes);
    this.textBytes += bytes.length;
    if (this.textBytes > MAX_TEXT_BYTES)
      throw badRequest(`The text parts are longer than ${MAX_TEXT_BYTES} bytes in all.`, part.name);
    part.text.push(Buffer.from(bytes));
  }

  private async endPart(): Promise<void> {
    const part = this.part!;
    this.part = null;
    if (part.writer) this.file = await part.writer.finish(part.filename ?? '');
    else this.fields[part.name] = Buffer.concat(part.text).toString('utf8');
  }

  result(): ReceivedForm {
    if (this.state !== 'done') throw malformed('it ended before the closing boundary');
    if (!this.file) throw badRequest('The upload has no part "file".', 'file');
    return { file: this.file, form: this.fields };
  }

  async discard(): Promise<void> {
    await this.part?.writer?.discard();
    if (this.file) await removeQuietly(this.file.path);
  }
}

/**
 * `form-data; name="file"; filename="a.png"` → `{ name, filename }`. Quoted values may escape `"` and `\`
 * with a backslash; browsers send `"`, CR and LF as %22, %0D, %0A (HTML's form encoding), decoded here.
 */
export function dispositionParams(value: string): Record<string, string> | null {
  const [type, ...rest] = splitParams(value);
  if (type.trim().toLowerCase() !== 'form-data') return null;
  const params: Record<string, string> = {};
  for (const item of rest) {
    const eq = item.indexOf('=');
    if (eq === -1) continue;
    const key = item.slice(0, eq).trim().toLowerCase();
    let raw = item.slice(eq + 1).trim();
    if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) raw = raw.slice(1, -1).replace(/\\(["\\])/g, '$1');
    params[key] = key === 'filename*' ? raw : raw.replace(/%(22|0d|0a)/gi, (m) => decodeURIComponent(m));
  }
  return params;
}

/** Splits on `;` outside quoted strings. */
function splitParams(value: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && quoted && i + 1 < value.length) {
      current += c + value[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ';' && !quoted) {
      out.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  out.push(current);
  return out;
}

/** RFC 8187 `UTF-8''caf%C3%A9.png`. */
function decodeExtended(value: string): string {
  const match = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(value);
  if (!match) return value;
  try {
    return match[1].toLowerCase() === 'utf-8' ? decodeURIComponent(match[2]) : unescape(match[2]);
  } catch {
    return match[2];
  }
}
