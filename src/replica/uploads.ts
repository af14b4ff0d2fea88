/**
 * Uploads on the replica (docs/replication.md "Uploads"): every file in local storage, content-addressed
 * (`uploads/<sha256>`), and each change of the stored files numbered in the same sequence as the database's
 * transactions, so a restore to a moment finds exactly the files that moment's documents name. A file
 * removed later stays on the replica until no moment inside the retention window names it (./retention.ts).
 */
import { createHash } from 'node:crypto';
import type { StorageAdapter } from '../config/types.ts';
import { packUpload, uploadKey, type FilesList } from './objects.ts';
import type { Recorder } from './recorder.ts';
import type { UploadsInUse } from './retention.ts';
import { bytesOfStored, type ReplicaTarget } from './target.ts';

type Logger = { warn(...a: unknown[]): void };

export type UploadsTracker = UploadsInUse & {
  /** Every stored file and its sha256, as of the last change. */
  manifest: Map<string, string>;
  /** The sha256 of every file stored since the last snapshot's list (emptied by `takeList`). */
  added: Set<string>;
  /** For a snapshot, taken at one moment: the stored files, and its list of uploads (objects.ts). */
  takeList(): { files: Record<string, string>; list: FilesList };
  /** Files on their way to the replica; segments naming them go only after them. */
  flush(): Promise<number>;
  /** Restores the adapter's own `put` and `delete`. */
  stop(): void;
};

async function bytesOf(storage: StorageAdapter, key: string): Promise<Uint8Array | null> {
  const file = await storage.get(key);
  if (!file) return null;
  return bytesOfStored(file);
}

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Follows local storage: reads what is stored now, then hears of every put and delete (the adapter's
 * methods are wrapped; a failure to follow never fails the upload itself, it is logged and the file
 * reaches the replica with the next snapshot).
 */
export async function trackUploads(options: {
  storage: StorageAdapter;
  target: ReplicaTarget;
  recorder: Recorder;
  encryptionKey: string | null;
  log: Logger;
}): Promise<UploadsTracker> {
  const { storage, target, recorder, encryptionKey, log } = options;
  const known = new Set((await target.list('uploads/')).map((o) => o.key.slice('uploads/'.length)));
  // By sha256, the name of a stored file holding those bytes: read again when shipped, not kept in memory.
  const waiting = new Map<string, string>();
  const manifest = new Map<string, string>();
  const added = new Set<string>();
  // The manifest's sha256s, built when asked and dropped at each change.
  let stored: Set<string> | null = null;
  const note = (sha256: string, key: string) => {
    if (!known.has(sha256)) waiting.set(sha256, key);
  };
  for await (const { key } of storage.list?.() ?? []) {
    const bytes = await bytesOf(storage, key);
    if (!bytes) continue;
    const sha256 = sha256Of(bytes);
    manifest.set(key, sha256);
    note(sha256, key);
  }
  const put = storage.put;
  const remove = storage.delete;
  storage.put = async (key, body, putOptions) => {
    await put.call(storage, key, body, putOptions);
    try {
      const bytes = await bytesOf(storage, key);
      if (!bytes) return;
      const sha256 = sha256Of(bytes);
      note(sha256, key);
      manifest.set(key, sha256);
      stored = null;
      added.add(sha256);
      recorder.fileChanged({ key, sha256 });
    } catch (error) {
      log.warn(`replica: could not read ${key} after storing it: ${(error as Error).message}`);
    }
  };
  storage.delete = async (key) => {
    await remove.call(storage, key);
    stored = null;
    if (manifest.delete(key)) recorder.fileChanged({ key, sha256: null });
  };
  return {
    manifest,
    added,
    takeList() {
      const files = Object.fromEntries(manifest);
      const list = { stored: [...new Set(manifest.values())], added: [...added] };
      added.clear();
      return { files, list };
    },
    inUse: (sha256) => added.has(sha256) || (stored ??= new Set(manifest.values())).has(sha256),
    forget: (sha256) => void known.delete(sha256),
    async flush() {
      let puts = 0;
      for (const [sha256, key] of waiting) {
        const bytes = await bytesOf(storage, key);
        if (!bytes || sha256Of(bytes) !== sha256) {
          // Replaced or removed before it was shipped: the change that did it follows in the sequence.
          waiting.delete(sha256);
          continue;
        }
        await target.put(uploadKey(sha256), packUpload(sha256, bytes, encryptionKey));
        waiting.delete(sha256);
        known.add(sha256);
        puts++;
      }
      return puts;
    },
    stop() {
      storage.put = put;
      storage.delete = remove;
    },
  };
}
