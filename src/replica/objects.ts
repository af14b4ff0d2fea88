/**
 * The replica's objects (docs/replication.md "What is stored"): segments (transactions `from`..`to`) and
 * snapshots (the whole database as of transaction `txid`). Each is one file: a magic line, a JSON header
 * (what it holds, its body's length and sha256) and the gzipped body; with a key, the whole of it is
 * sealed with AES-256-GCM before it leaves the process, so no header, name of a table or value is readable
 * on the replica.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Params } from '../db/store.ts';
import type { Transaction } from './recorder.ts';

const PLAIN = 'CMSREPL1\n';
const SEALED = 'CMSREPLE\n';

export type SegmentHeader = { kind: 'segment'; from: number; to: number; firstAt: number; lastAt: number };
/**
 * `uploads`: every stored upload (name → sha256) as of transaction `uploadsTxid` (at most `txid`; the file
 * changes between the two are replayed from the segments).
 */
export type SnapshotHeader = {
  kind: 'snapshot';
  txid: number;
  at: number;
  secret: string | null;
  uploads: Record<string, string> | null;
  uploadsTxid: number;
};
type UploadHeader = { kind: 'upload'; sha256: string };
type FilesHeader = { kind: 'files' };
type DeleteHeader = { kind: 'delete' };
type Stored<H> = H & { sha256: string; length: number };

export class DamagedObject extends Error {}

const TXID_DIGITS = 16;
const pad = (n: number) => String(n).padStart(TXID_DIGITS, '0');

/** An upload's bytes, content-addressed: the same file stored twice is one object. */
export const uploadKey = (sha256: string) => `uploads/${sha256}`;
export const segmentKey = (from: number, to: number) => `segments/${pad(from)}-${pad(to)}.seg`;
/**
 * Snapshots carry their time and the number their list of uploads is as of in the name too, so a restore
 * to a moment finds its base, and retention what it needs, without reading it.
 */
export const snapshotKey = (txid: number, at: number, uploadsTxid: number) =>
  `snapshots/${pad(txid)}-${at}-${pad(uploadsTxid)}.snap`;

/**
 * Beside each snapshot, its list of uploads by sha256: `stored` (the files of its moment) and `added`
 * (every file stored since the snapshot before, removed since or not). What retention of the uploads
 * reads, small where the snapshot is large.
 */
export const snapshotFilesKey = (snapshot: string) => snapshot.replace(/\.snap$/, '.files');

export function parseSegmentKey(key: string): { from: number; to: number } | null {
  const match = /^segments\/(\d+)-(\d+)\.seg$/.exec(key);
  return match ? { from: Number(match[1]), to: Number(match[2]) } : null;
}

export function parseSnapshotKey(key: string): { txid: number; at: number; uploadsTxid: number } | null {
  const match = /^snapshots\/(\d+)-(\d+)-(\d+)\.snap$/.exec(key);
  return match ? { txid: Number(match[1]), at: Number(match[2]), uploadsTxid: Number(match[3]) } : null;
}

function keyOf(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

function pack(header: object, body: Uint8Array, encryptionKey: string | null): Uint8Array {
  const gz = Bun.gzipSync(body as Uint8Array<ArrayBuffer>, { level: 1 });
  const sha256 = createHash('sha256').update(gz).digest('hex');
  const head = Buffer.from(`${PLAIN}${JSON.stringify({ ...header, sha256, length: gz.length })}\n`);
  const plain = Buffer.concat([head, gz]);
  if (!encryptionKey) return plain;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(encryptionKey), iv);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from(SEALED), iv, cipher.getAuthTag(), sealed]);
}

function unpack<H>(name: string, bytes: Uint8Array, encryptionKey: string | null): { header: Stored<H>; body: Buffer } {
  let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.subarray(0, SEALED.length).toString() === SEALED) {
    if (!encryptionKey)
      throw new DamagedObject(`${name} is encrypted: set replica.encryptionKey (or CMS_REPLICA_KEY) to read it`);
    const at = SEALED.length;
    try {
      const decipher = createDecipheriv('aes-256-gcm', keyOf(encryptionKey), data.subarray(at, at + 12));
      decipher.setAuthTag(data.subarray(at + 12, at + 28));
      data = Buffer.concat([decipher.update(data.subarray(at + 28)), decipher.final()]);
    } catch {
      throw new DamagedObject(`${name} cannot be decrypted: a wrong encryptionKey, or the object is damaged`);
    }
  }
  if (data.subarray(0, PLAIN.length).toString() !== PLAIN) throw new DamagedObject(`${name} is not a replica object`);
  const end = data.indexOf(10, PLAIN.length);
  let header: Stored<H>;
  try {
    header = JSON.parse(data.subarray(PLAIN.length, end).toString());
  } catch {
    throw new DamagedObject(`${name} is damaged (its header does not read)`);
  }
  const gz = data.subarray(end + 1);
  if (gz.length !== header.length || createHash('sha256').update(gz).digest('hex') !== header.sha256)
    throw new DamagedObject(`${name} is damaged (its checksum does not match)`);
  return { header, body: Buffer.from(Bun.gunzipSync(gz as Uint8Array<ArrayBuffer>)) };
}

/** Values as JSON keeps them: bytes and big integers tagged. */
function encodeParams(params: Params | null): unknown {
  if (params === null) return null;
  return params.map((v) =>
    v instanceof Uint8Array
      ? { $b: Buffer.from(v).toString('base64') }
      : typeof v === 'bigint'
        ? { $i: v.toString() }
        : v,
  );
}

function decodeParams(params: unknown[] | null): Params | null {
  if (params === null) return null;
  return params.map((v) => {
    if (v && typeof v === 'object') {
      if ('$b' in v) return new Uint8Array(Buffer.from((v as { $b: string }).$b, 'base64'));
      if ('$i' in v) return BigInt((v as { $i: string }).$i);
    }
    return v;
  });
}

export function packSegment(transactions: Transaction[], encryptionKey: string | null): Uint8Array {
  const header: SegmentHeader = {
    kind: 'segment',
    from: transactions[0]!.txid,
    to: transactions.at(-1)!.txid,
    firstAt: transactions[0]!.at,
    lastAt: transactions.at(-1)!.at,
  };
  // Each SQL text once, statements by its index: the same few statements run over and over.
  const texts = new Map<string, number>();
  const indexOf = (sql: string) => {
    let index = texts.get(sql);
    if (index === undefined) texts.set(sql, (index = texts.size));
    return index;
  };
  const body = transactions.map((t) => ({
    txid: t.txid,
    at: t.at,
    statements: t.statements.map(([sql, params]) => [indexOf(sql), encodeParams(params)]),
    ...(t.files ? { files: t.files } : {}),
    ...(t.start ? { start: true } : {}),
  }));
  return pack(header, Buffer.from(JSON.stringify({ sql: [...texts.keys()], transactions: body })), encryptionKey);
}

/** The transactions of a segment, checked: checksum, range as named, numbers one after another. */
export function unpackSegment(key: string, bytes: Uint8Array, encryptionKey: string | null): Transaction[] {
  const { header, body } = unpack<SegmentHeader>(key, bytes, encryptionKey);
  const named = parseSegmentKey(key);
  const parsed = JSON.parse(body.toString()) as {
    sql: string[];
    transactions: {
      txid: number;
      at: number;
      statements: [number, unknown[] | null][];
      files?: Transaction['files'];
      start?: true;
    }[];
  };
  const transactions: Transaction[] = parsed.transactions.map((t) => ({
    txid: t.txid,
    at: t.at,
    statements: t.statements.map(([index, params]) => [parsed.sql[index]!, decodeParams(params)]),
    ...(t.files ? { files: t.files } : {}),
    ...(t.start ? { start: true as const } : {}),
  }));
  const whole =
    transactions.every((t) => t.statements.every(([sql]) => typeof sql === 'string')) &&
    header.kind === 'segment' &&
    named?.from === header.from &&
    named.to === header.to &&
    transactions.length === header.to - header.from + 1 &&
    transactions.every((t, i) => t.txid === header.from + i);
  if (!whole) throw new DamagedObject(`${key} is damaged (its transactions do not match its name)`);
  return transactions;
}

export function packSnapshot(header: SnapshotHeader, database: Uint8Array, encryptionKey: string | null): Uint8Array {
  return pack(header, database, encryptionKey);
}

export function unpackSnapshot(
  key: string,
  bytes: Uint8Array,
  encryptionKey: string | null,
): { header: SnapshotHeader; database: Buffer } {
  const { header, body } = unpack<SnapshotHeader>(key, bytes, encryptionKey);
  const named = parseSnapshotKey(key);
  if (header.kind !== 'snapshot' || named?.txid !== header.txid)
    throw new DamagedObject(`${key} is damaged (its header does not match its name)`);
  return { header, database: body };
}

export function packUpload(sha256: string, bytes: Uint8Array, encryptionKey: string | null): Uint8Array {
  return pack({ kind: 'upload', sha256 } satisfies UploadHeader, bytes, encryptionKey);
}

/** An upload's bytes, checked against the sha256 its name gives. */
export function unpackUpload(key: string, bytes: Uint8Array, encryptionKey: string | null): Buffer {
  const { body } = unpack<UploadHeader>(key, bytes, encryptionKey);
  if (`uploads/${createHash('sha256').update(body).digest('hex')}` !== key)
    throw new DamagedObject(`${key} is damaged (its content does not match its name)`);
  return body;
}

export type FilesList = { stored: string[]; added: string[] };

export function packFiles(list: FilesList, encryptionKey: string | null): Uint8Array {
  return pack({ kind: 'files' } satisfies FilesHeader, Buffer.from(JSON.stringify(list)), encryptionKey);
}

export function unpackFiles(key: string, bytes: Uint8Array, encryptionKey: string | null): FilesList {
  const { header, body } = unpack<FilesHeader>(key, bytes, encryptionKey);
  const list = JSON.parse(body.toString()) as FilesList;
  const strings = (a: unknown) => Array.isArray(a) && a.every((s) => typeof s === 'string');
  if (header.kind !== 'files' || !strings(list?.stored) || !strings(list?.added))
    throw new DamagedObject(`${key} is damaged (it is not a list of uploads)`);
  return list;
}

/** A file of upload storage off the box, removed by the application at `at` and kept until retention. */
export const deleteKey = (hash: string, at: number) => `deletes/${hash}-${at}.del`;

export function parseDeleteKey(key: string): { hash: string; at: number } | null {
  const match = /^deletes\/([0-9a-f]{64})-(\d+)\.del$/.exec(key);
  return match ? { hash: match[1]!, at: Number(match[2]) } : null;
}

export function packDelete(storageKey: string, encryptionKey: string | null): Uint8Array {
  return pack({ kind: 'delete' } satisfies DeleteHeader, Buffer.from(storageKey), encryptionKey);
}

export function unpackDelete(key: string, bytes: Uint8Array, encryptionKey: string | null): string {
  const { header, body } = unpack<DeleteHeader>(key, bytes, encryptionKey);
  if (header.kind !== 'delete') throw new DamagedObject(`${key} is damaged (it names no stored file)`);
  return body.toString();
}
