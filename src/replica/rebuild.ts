/**
 * A database rebuilt from the replica as it was at one moment (docs/replication.md "Restore"): the newest
 * snapshot at or before it, then every transaction after the snapshot up to the moment, replayed in
 * order. Every object is checked as it is read (checksum, range, numbers in sequence), the chain must have
 * no gap, and the result must pass `PRAGMA integrity_check`; any trouble stops it, naming the object, and
 * nothing outside the staging folder it writes into has been touched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Database, type SQLQueryBindings } from 'bun:sqlite';
import { ConfigError } from '../errors.ts';
import { readCatalog, type Catalog, type SegmentEntry, type SnapshotEntry } from './catalog.ts';
import { DamagedObject, segmentKey, unpackSegment, unpackSnapshot, unpackUpload, uploadKey } from './objects.ts';
import { SET_POSITION, type Transaction } from './recorder.ts';
import type { ReplicaTarget } from './target.ts';

/** Which moment: a transaction number, a time (epoch ms), or neither for the latest. */
export type RestorePoint = { txid?: number; at?: number };

export type Rebuilt = {
  /** The rebuilt database file (inside the staging folder); null when only uploads were restored. */
  file: string | null;
  txid: number;
  /** When that transaction committed. */
  at: number;
  /** The instance secret the snapshot carried (null: none). */
  secret: string | null;
  snapshot: string;
  segments: number;
  /** The folder holding the uploads of that moment (checked against their sha256), or null when not replicated. */
  uploads: string | null;
};

const describe = (point: RestorePoint) =>
  point.txid !== undefined
    ? `transaction ${point.txid}`
    : point.at !== undefined
      ? new Date(point.at).toISOString()
      : 'the latest moment';

function baseFor(catalog: Catalog, point: RestorePoint): SnapshotEntry {
  const candidates = catalog.snapshots.filter((s) =>
    point.txid !== undefined ? s.txid <= point.txid : point.at !== undefined ? s.at <= point.at : true,
  );
  const base = candidates.at(-1);
  if (!base) {
    const oldest = catalog.snapshots[0];
    throw new ConfigError(
      oldest
        ? `the replica holds nothing as old as ${describe(point)}: its oldest snapshot is transaction ${oldest.txid} of ${new Date(oldest.at).toISOString()}; nothing was changed`
        : 'the replica holds no snapshot yet (has a server with this replica run?); nothing was changed',
    );
  }
  return base;
}

/** The segment that holds transaction `txid`, or null at the end of the chain; a gap is refused by name. */
function segmentHolding(segments: SegmentEntry[], txid: number): SegmentEntry | null {
  const holding = segments.filter((s) => s.from <= txid && s.to >= txid).at(-1);
  if (holding) return holding;
  const later = segments.find((s) => s.from > txid);
  if (!later) return null;
  throw new ConfigError(
    `the replica misses ${segmentKey(txid, later.from - 1)} (transactions ${txid} to ${later.from - 1}): restore to a moment before it or after the next snapshot; nothing was changed`,
  );
}

async function read(target: ReplicaTarget, key: string): Promise<Uint8Array> {
  const bytes = await target.get(key);
  if (!bytes) throw new ConfigError(`the replica misses ${key}; nothing was changed`);
  return bytes;
}

function replay(db: Database, transaction: Transaction): void {
  db.transaction(() => {
    for (const [sql, params] of transaction.statements) {
      if (params === null) db.exec(sql);
      else db.query(sql).run(...(params as SQLQueryBindings[]));
    }
    db.query(SET_POSITION).run(transaction.txid, transaction.at);
  })();
}

export async function rebuildDatabase(
  target: ReplicaTarget,
  point: RestorePoint,
  staging: string,
  encryptionKey: string | null,
  /** Only the uploads of the moment (the database is PostgreSQL's): nothing of SQLite is rebuilt. */
  uploadsOnly = false,
): Promise<Rebuilt> {
  const catalog = await readCatalog(target);
  const base = baseFor(catalog, point);
  try {
    const { header, database } = unpackSnapshot(base.key, await read(target, base.key), encryptionKey);
    if (!uploadsOnly && database.length === 0)
      throw new ConfigError(
        `${base.key} holds uploads only (an instance on PostgreSQL wrote this replica): no database to restore; nothing was changed`,
      );
    fs.mkdirSync(staging, { recursive: true });
    const file = uploadsOnly ? null : path.join(staging, 'rebuilt.db');
    if (file) fs.writeFileSync(file, database);
    const db = file ? new Database(file, { strict: true }) : null;
    let txid = header.txid;
    let at = header.at;
    let segments = 0;
    const files = header.uploads ? new Map(Object.entries(header.uploads)) : null;
    // File changes after the snapshot's list of uploads, which may be older than its database.
    let next = Math.min(txid, header.uploadsTxid ?? txid) + 1;
    try {
      db?.exec('PRAGMA journal_mode = DELETE');
      db?.exec('PRAGMA foreign_keys = ON');
      chain: for (;;) {
        if (point.txid !== undefined && next > point.txid) break;
        const segment = segmentHolding(catalog.segments, next);
        if (!segment) break;
        const transactions = unpackSegment(segment.key, await read(target, segment.key), encryptionKey);
        segments++;
        for (const transaction of transactions) {
          if (transaction.txid < next) continue;
          if (point.txid !== undefined && transaction.txid > point.txid) break chain;
          if (point.at !== undefined && transaction.at > point.at) break chain;
          next = transaction.txid + 1;
          if (files && transaction.txid > (header.uploadsTxid ?? txid))
            for (const change of transaction.files ?? [])
              change.sha256 ? files.set(change.key, change.sha256) : files.delete(change.key);
          if (transaction.txid <= txid) continue;
          if (transaction.start)
            throw new ConfigError(
              `the server restarted at transaction ${transaction.txid} (${new Date(transaction.at).toISOString()}) and its snapshot is not on the replica: restore to a moment before it or after the next snapshot; nothing was changed`,
            );
          if (db) replay(db, transaction);
          txid = transaction.txid;
          at = transaction.at;
        }
      }
      if (point.txid !== undefined && txid !== point.txid)
        throw new ConfigError(
          `transaction ${point.txid} is not on the replica (its newest is ${txid}); nothing was changed`,
        );
      const check = db?.query<{ integrity_check: string }, []>('PRAGMA integrity_check').all() ?? [
        { integrity_check: 'ok' },
      ];
      if (check.length !== 1 || check[0]!.integrity_check !== 'ok')
        throw new ConfigError(
          `the database rebuilt from the replica fails its integrity check (${check
            .map((r) => r.integrity_check)
            .slice(0, 3)
            .join('; ')}); nothing was changed`,
        );
    } finally {
      db?.close();
    }
    const uploads = files ? await fetchUploads(target, files, path.join(staging, 'uploads'), encryptionKey) : null;
    return { file, txid, at, secret: header.secret, snapshot: base.key, segments, uploads };
  } catch (error) {
    if (error instanceof DamagedObject) throw new ConfigError(`${error.message}; nothing was changed`);
    throw error;
  }
}

/** Every file of the moment into `folder`, each checked against its sha256. */
async function fetchUploads(
  target: ReplicaTarget,
  files: Map<string, string>,
  folder: string,
  encryptionKey: string | null,
): Promise<string> {
  fs.mkdirSync(folder, { recursive: true });
  for (const [name, sha256] of files) {
    // Names come from the replica: only plain file names, never a path out of the folder.
    if (name !== path.basename(name) || name.startsWith('.'))
      throw new ConfigError(`the replica names an upload "${name}" that is not a file name; nothing was changed`);
    const key = uploadKey(sha256);
    fs.writeFileSync(path.join(folder, name), unpackUpload(key, await read(target, key), encryptionKey));
  }
  return folder;
}
