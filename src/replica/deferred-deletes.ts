/**
 * Upload storage off the box (S3) is not copied to the replica (docs/replication.md "Uploads"): a restore
 * to an earlier moment finds the files where they are. So a file the application removes from it stays
 * there while a moment inside the retention window may name it: the removal is noted on the replica
 * (`deletes/<sha256 of the name>-<time>.del`, the name sealed inside), and carried out by retention once
 * it is older than the window, unless a document names the file again by then.
 */
import { createHash } from 'node:crypto';
import type { StorageAdapter } from '../config/types.ts';
import { deleteKey, packDelete, parseDeleteKey, unpackDelete } from './objects.ts';
import type { ReplicaTarget } from './target.ts';

type Logger = { warn(...a: unknown[]): void };

export type DeferredDeletes = {
  /** Notes the removals asked for since the last round on the replica; answers the objects written. */
  flush(): Promise<number>;
  /** Removes the files whose removal is older than `windowStart`; answers how many. */
  purge(windowStart: number): Promise<number>;
  /** Restores the adapter's own `put` and `delete`. */
  stop(): void;
};

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

export async function deferDeletes(options: {
  storage: StorageAdapter;
  target: ReplicaTarget;
  encryptionKey: string | null;
  /** Every file name a document holds now (a file named again is kept). */
  namedFiles: () => Promise<Set<string>>;
  now: () => number;
  log: Logger;
}): Promise<DeferredDeletes> {
  const { storage, target, encryptionKey, log } = options;
  // By the hash of the name: the marker on the replica, or the removal waiting to be noted.
  const noted = new Map<string, string>();
  for (const { key } of await target.list('deletes/')) {
    const parsed = parseDeleteKey(key);
    if (parsed) noted.set(parsed.hash, key);
  }
  const waiting = new Map<string, { key: string; at: number }>();
  const put = storage.put;
  const remove = storage.delete;
  storage.delete = async (key) => {
    const hash = hashOf(key);
    if (!noted.has(hash) && !waiting.has(hash)) waiting.set(hash, { key, at: options.now() });
  };
  storage.put = async (key, body, putOptions) => {
    await put.call(storage, key, body, putOptions);
    // Stored again under a removed name: that removal no longer stands.
    const hash = hashOf(key);
    waiting.delete(hash);
    const marker = noted.get(hash);
    if (marker) {
      noted.delete(hash);
      await target.remove(marker).catch((error: Error) => {
        log.warn(`replica: could not withdraw ${marker}: ${error.message}`);
      });
    }
  };
  return {
    async flush() {
      let puts = 0;
      for (const [hash, { key, at }] of waiting) {
        const marker = deleteKey(hash, at);
        await target.put(marker, packDelete(key, encryptionKey));
        waiting.delete(hash);
        noted.set(hash, marker);
        puts++;
      }
      return puts;
    },
    async purge(windowStart) {
      const due = [...noted.values()].filter((marker) => parseDeleteKey(marker)!.at <= windowStart);
      if (due.length === 0) return 0;
      const named = await options.namedFiles();
      let removed = 0;
      for (const marker of due) {
        const bytes = await target.get(marker);
        const key = bytes ? unpackDelete(marker, bytes, encryptionKey) : null;
        if (key !== null && !named.has(key)) {
          await remove.call(storage, key);
          removed++;
        }
        await target.remove(marker);
        noted.delete(parseDeleteKey(marker)!.hash);
      }
      return removed;
    },
    stop() {
      storage.put = put;
      storage.delete = remove;
    },
  };
}
