/**
 * Replication while the server runs (docs/replication.md): every committed transaction is captured
 * (./recorder.ts) and shipped in order, about once a second, as one segment per batch; a snapshot is
 * taken at start and every `snapshotInterval`. Shipping never holds a write: a replica that cannot be
 * reached leaves the transactions queued, and the next round ships them all, without a gap.
 */
import type { SanitizedConfig, StorageAdapter } from '../config/types.ts';
import type { Store } from '../db/store.ts';
import { captureCommits } from '../db/sqlite/commit-capture.ts';
import { unavailable } from '../errors.ts';
import { readCatalog } from './catalog.ts';
import { packFiles, packSegment, segmentKey, snapshotFilesKey, type FilesList } from './objects.ts';
import { CREATE_POSITION, POSITION_TABLE, SET_POSITION, createRecorder, type Recorder } from './recorder.ts';
import { takeSnapshot, takeUploadsSnapshot } from './snapshot.ts';
import { applyRetention, storedSince } from './retention.ts';
import { openTarget, type ReplicaTarget } from './target.ts';
import { forgetReplica, noteReplica, type Replica } from './running.ts';
import { trackUploads, type UploadsTracker } from './uploads.ts';
import { deferDeletes, type DeferredDeletes } from './deferred-deletes.ts';

type Logger = { info(...a: unknown[]): void; warn(...a: unknown[]): void };

const DAY_MS = 86_400_000;
/** How often queued transactions are shipped. */
export const SHIP_EVERY_MS = 1000;
/** Transactions in one segment at most (a long backlog goes up in several). */
const SEGMENT_TRANSACTIONS = 5000;

type Options = {
  config: SanitizedConfig;
  store: Store;
  /** The instance's upload storage: followed when it is local disk. */
  storage: StorageAdapter;
  now: () => number;
  log: Logger;
  /** Every file name a document holds now: a file in S3 storage named again is not removed (./deferred-deletes.ts). */
  namedFiles?: () => Promise<Set<string>>;
};

type Attached = {
  recorder: Recorder;
  uploads: UploadsTracker | null;
  deletes: DeferredDeletes | null;
  startTxid: number;
  stop(): void;
};

/**
 * Starts capturing: reads what the replica holds, numbers this start after it, and follows commits and
 * uploads from here on. Each start is a transaction of its own, held by the snapshot taken next: the
 * writes this process did not see (migrations at start, commands run while no server ran, writes made
 * before the replica could be reached) are in it, and a database restored to an earlier moment goes on
 * under numbers of its own.
 */
async function attach(
  options: Options,
  target: ReplicaTarget,
  durable: ((txid: number) => Promise<void>) | undefined,
): Promise<Attached> {
  const { config, store, now, log } = options;
  const settings = config.replica!;
  const catalog = await readCatalog(target);
  const uploadsOnly = config.databaseEngine !== 'sqlite';
  const position = uploadsOnly ? null : await store.get<{ txid: number }>(`SELECT "txid" FROM "${POSITION_TABLE}"`);
  const startTxid = Math.max(position?.txid ?? 0, catalog.newestTxid) + 1;
  if (!uploadsOnly) await store.run(SET_POSITION, [startTxid, now()]);
  const recorder = createRecorder(startTxid, now, durable);
  // The start goes up in the first segment: a restore from an older snapshot knows it cannot go past it.
  recorder.queued.push({ txid: startTxid, at: now(), statements: [], start: true });
  const stopCapture = uploadsOnly ? () => {} : captureCommits(config.databasePath, recorder);
  // Files in S3 storage stay there (docs/replication.md): only local uploads are copied.
  const uploads = config.upload.storage
    ? null
    : await trackUploads({ storage: options.storage, target, recorder, encryptionKey: settings.encryptionKey, log });
  // Files stored after the newest snapshot's list, by the process before this one, go into the next list.
  if (uploads)
    for (const sha256 of await storedSince(target, catalog, settings.encryptionKey)) uploads.added.add(sha256);
  // Files in S3 storage stay there as long as a moment inside the window may name them.
  const deletes =
    config.upload.storage && options.namedFiles
      ? await deferDeletes({
          storage: options.storage,
          target,
          encryptionKey: settings.encryptionKey,
          namedFiles: options.namedFiles,
          now,
          log,
        })
      : null;
  return {
    recorder,
    uploads,
    deletes,
    startTxid,
    stop() {
      stopCapture();
      uploads?.stop();
      deletes?.stop();
    },
  };
}

export async function startReplica(options: Options): Promise<Replica | null> {
  const { config, store, now, log } = options;
  const settings = config.replica;
  if (!settings) return null;
  const uploadsOnly = config.databaseEngine !== 'sqlite';
  if (uploadsOnly && config.upload.storage) {
    log.info(
      'replica: the PostgreSQL database is backed up by the server, the uploads are in S3 (docs/replication.md): nothing to replicate',
    );
    return null;
  }
  if (uploadsOnly)
    log.info(
      'replica: copying the uploads only; the PostgreSQL database is backed up by the server (docs/replication.md)',
    );
  const target = openTarget(settings);
  if (!uploadsOnly) await store.exec(CREATE_POSITION);
  const startedAt = now();
  const waiting = syncWaiters(settings.syncTimeoutMs, () => void ship());
  let attached: Attached | null = null;
  let lastSnapshotAt: number | null = null;
  let shipped = 0;
  let lastError: string | null = null;
  let failures = 0;
  let oldestRestorable: number | null = null;
  let puts = 0;
  let round: Promise<void> | null = null;

  const snapshot = async (on: Attached) => {
    // The stored files and the number they are as of, taken together, before the copy starts.
    const taken = on.uploads?.takeList();
    const files = taken ? { files: taken.files, txid: on.recorder.lastTxid() } : null;
    try {
      await snapshotWith(files, taken?.list ?? null);
    } catch (error) {
      // Not on the replica: what the list held goes into the next one.
      for (const sha256 of taken?.list.added ?? []) on.uploads!.added.add(sha256);
      throw error;
    }
    lastSnapshotAt = now();
    // After a snapshot is the moment older objects may have become unneeded.
    const running = on.uploads ? { encryptionKey: settings.encryptionKey, running: on.uploads } : null;
    const { removed, oldest } = await applyRetention(target, now(), settings.retentionDays, running);
    oldestRestorable = oldest;
    if (removed.length)
      log.info(`replica: removed ${removed.length} object(s) older than ${settings.retentionDays} days`);
    const purged = await on.deletes?.purge(now() - settings.retentionDays * DAY_MS);
    if (purged)
      log.info(`replica: removed ${purged} stored file(s) deleted more than ${settings.retentionDays} days ago`);
  };
  const snapshotWith = async (
    files: { files: Record<string, string>; txid: number } | null,
    list: FilesList | null,
  ) => {
    const snap = uploadsOnly
      ? await takeUploadsSnapshot({ uploads: files!, at: now(), target, encryptionKey: settings.encryptionKey })
      : await takeSnapshot({
          uploads: files,
          databasePath: config.databasePath,
          dataDir: config.dataDir,
          target,
          encryptionKey: settings.encryptionKey,
        });
    puts++;
    if (list) {
      await target.put(snapshotFilesKey(snap.key), packFiles(list, settings.encryptionKey));
      puts++;
    }
    shipped = Math.max(shipped, snap.txid);
    waiting.release(shipped);
  };
  const once = async () => {
    try {
      // A replica that could not be reached at start is attached once it can be (its snapshot holds what came before).
      const durable = settings.mode === 'sync' && !uploadsOnly ? waiting.durable : undefined;
      const on = (attached ??= await attach(options, target, durable));
      puts += (await on.deletes?.flush()) ?? 0;
      const last = await shipQueued(target, on, settings.encryptionKey);
      if (last !== null) {
        shipped = Math.max(shipped, last.txid);
        puts += last.puts;
        waiting.release(shipped);
      }
      if (lastSnapshotAt === null || now() - lastSnapshotAt >= settings.snapshotIntervalMs) await snapshot(on);
      if (lastError) log.info(`replica: ${target.label} reachable again, caught up to transaction ${shipped}`);
      lastError = null;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (lastError !== reason) log.warn(`replica: cannot ship to ${target.label}: ${reason}`);
      failures++;
      lastError = reason;
    }
  };
  // One round at a time; transactions committed while one runs go in the next, started as soon as it ends
  // when writes wait for it (sync), else at the next tick: writes served together share a segment.
  let again = false;
  const ship = (): Promise<void> => {
    if (round) {
      again = true;
      return round;
    }
    again = false;
    round = once().finally(() => {
      round = null;
      if (again && waiting.count() && !lastError) void ship();
    });
    return round;
  };
  await ship();
  const timer = setInterval(() => void ship(), SHIP_EVERY_MS);
  const replica: Replica = {
    mode: settings.mode,
    uploadsOnly,
    label: target.label,
    lagMs: () => {
      // Not attached yet: everything since the start is missing from the replica.
      if (!attached) return Math.max(0, now() - startedAt);
      const oldest = attached.recorder.queued[0];
      return oldest ? Math.max(0, now() - oldest.at) : 0;
    },
    lastTransaction: () => shipped,
    lastSnapshotAt: () => lastSnapshotAt,
    puts: () => puts,
    failures: () => failures,
    oldestRestorableAt: () => oldestRestorable,
    lastError: () => lastError,
    ship,
    async close() {
      clearInterval(timer);
      await round;
      await ship();
      attached?.stop();
      forgetReplica(store);
    },
  };
  noteReplica(store, replica);
  return replica;
}

/**
 * Sync mode: a transaction's writes are acknowledged once it is on the replica (`release`), or refused
 * with 503 and Retry-After after `timeoutMs`.
 */
function syncWaiters(timeoutMs: number, wake: () => void) {
  type Waiter = { txid: number; resolve: () => void };
  let waiters: Waiter[] = [];
  return {
    count: () => waiters.length,
    durable: (txid: number) =>
      new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { txid, resolve: () => (clearTimeout(timer), resolve()) };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          reject(
            unavailable(
              'the replica cannot be reached: this write is saved here and reaches the replica once it is back; retry later',
              Math.ceil(timeoutMs / 1000),
            ),
          );
        }, timeoutMs);
        waiters.push(waiter);
        wake();
      }),
    release(shipped: number) {
      const done = waiters.filter((w) => w.txid <= shipped);
      waiters = waiters.filter((w) => w.txid > shipped);
      for (const w of done) w.resolve();
    },
  };
}

/** Ships the queued transactions as segments, oldest first; answers the last shipped, or null when nothing was. */
async function shipQueued(
  target: ReplicaTarget,
  { recorder, uploads }: Attached,
  encryptionKey: string | null,
): Promise<{ txid: number; puts: number } | null> {
  let puts = 0;
  let txid = 0;
  for (;;) {
    const batch = recorder.take(SEGMENT_TRANSACTIONS);
    // The files first, flushed after the batch is taken (a file's bytes wait before its change is queued):
    // a segment that names a file never reaches the replica before the file.
    puts += (await uploads?.flush()) ?? 0;
    if (batch.length === 0) return puts ? { txid, puts } : null;
    await target.put(segmentKey(batch[0]!.txid, batch.at(-1)!.txid), packSegment(batch, encryptionKey));
    recorder.shipped(batch.length);
    txid = batch.at(-1)!.txid;
    puts++;
  }
}
