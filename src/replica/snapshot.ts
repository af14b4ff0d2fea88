/**
 * A snapshot of the live database for the replica: a consistent copy (`VACUUM INTO` in a worker, beside
 * the writes), which says itself which transaction it ends with (the `_cms_replica` row), packed and put.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Database } from 'bun:sqlite';
import { snapshotSqlite } from '../db/sqlite/snapshot.ts';
import { packSnapshot, snapshotKey } from './objects.ts';
import { POSITION_TABLE } from './recorder.ts';
import type { ReplicaTarget } from './target.ts';

export type SnapshotTaken = { key: string; txid: number; at: number; bytes: number };

export async function takeSnapshot(options: {
  databasePath: string;
  dataDir: string;
  target: ReplicaTarget;
  encryptionKey: string | null;
  /** The stored uploads as of transaction `txid` (taken before the copy starts), or null when not followed. */
  uploads: { files: Record<string, string>; txid: number } | null;
}): Promise<SnapshotTaken> {
  const staging = path.join(options.dataDir, '.replica');
  fs.mkdirSync(staging, { recursive: true });
  const copy = path.join(staging, `snapshot-${process.pid}.db`);
  try {
    await snapshotSqlite(options.databasePath, copy);
    const { txid, at } = readPosition(copy) ?? { txid: 0, at: 0 };
    const secretFile = path.join(options.dataDir, 'secret');
    const secret = fs.existsSync(secretFile) ? fs.readFileSync(secretFile, 'utf8').trim() : null;
    const packed = packSnapshot(
      {
        kind: 'snapshot',
        txid,
        at,
        secret,
        uploads: options.uploads?.files ?? null,
        uploadsTxid: options.uploads?.txid ?? txid,
      },
      await Bun.file(copy).bytes(),
      options.encryptionKey,
    );
    const key = snapshotKey(txid, at, options.uploads?.txid ?? txid);
    await options.target.put(key, packed);
    return { key, txid, at, bytes: packed.length };
  } finally {
    fs.rmSync(copy, { force: true });
  }
}

/**
 * A snapshot of the uploads alone (the database is PostgreSQL's, backed up by the server): the stored
 * files as of transaction `uploads.txid`, with no database in it.
 */
export async function takeUploadsSnapshot(options: {
  uploads: { files: Record<string, string>; txid: number };
  at: number;
  target: ReplicaTarget;
  encryptionKey: string | null;
}): Promise<SnapshotTaken> {
  const { uploads, at } = options;
  const packed = packSnapshot(
    { kind: 'snapshot', txid: uploads.txid, at, secret: null, uploads: uploads.files, uploadsTxid: uploads.txid },
    new Uint8Array(0),
    options.encryptionKey,
  );
  const key = snapshotKey(uploads.txid, at, uploads.txid);
  await options.target.put(key, packed);
  return { key, txid: uploads.txid, at, bytes: packed.length };
}

/** The last transaction a database file holds, from its `_cms_replica` row (null: never replicated). */
export function readPosition(file: string): { txid: number; at: number } | null {
  const db = new Database(file, { readonly: true });
  try {
    const known = db.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '${POSITION_TABLE}'`).get();
    if (!known) return null;
    return db.query<{ txid: number; at: number }, []>(`SELECT "txid", "at" FROM "${POSITION_TABLE}"`).get();
  } finally {
    db.close();
  }
}
