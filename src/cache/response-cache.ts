/**
 * The response cache's memory: answers by key, least recently used first out, bounded by bytes
 * (config `cache.maxSize`). It knows nothing about when an answer is stale; that is the caller's
 * comparison of change counters (src/http/cached-read.ts). Counts hits, misses and evictions for
 * `/metrics`.
 */

export type CachedAnswer = {
  /**
   * The answer's bytes: a Blob when they are sent as they are (a Response takes a Blob's bytes without
   * copying them, where it copies an array's), an array when they are put inside another answer.
   */
  body: Blob | Uint8Array<ArrayBuffer>;
  etag: string;
  /** The change counters of the answer's tables, read before it was computed. */
  counters: number[];
  /** The body compressed for clients that accept it, by encoding, once asked for: counted with the body. */
  packed?: Readonly<Record<string, Uint8Array<ArrayBuffer>>>;
};

export const bodySize = (body: Blob | Uint8Array) => (body instanceof Blob ? body.size : body.byteLength);

const packedBytes = (answer: CachedAnswer) =>
  answer.packed ? Object.values(answer.packed).reduce((sum, bytes) => sum + bytes.byteLength, 0) : 0;

/** What an entry costs beyond its body and key: the entry object, its counters, the Map slot. */
const ENTRY_OVERHEAD = 200;

export type ResponseCache<T extends CachedAnswer = CachedAnswer> = ReturnType<typeof createResponseCache<T>>;

export function createResponseCache<T extends CachedAnswer>(maxSize: number) {
  const entries = new Map<string, T>();
  const sizeOf = (key: string, answer: T) =>
    bodySize(answer.body) + packedBytes(answer) + key.length * 2 + answer.counters.length * 8 + ENTRY_OVERHEAD;
  const stats = { hits: 0, misses: 0, evictions: 0, bytes: 0 };

  function remove(key: string, answer: T): void {
    entries.delete(key);
    stats.bytes -= sizeOf(key, answer);
  }

  return {
    stats,
    get entries() {
      return entries.size;
    },
    /** The answer kept under `key`, now the most recently used. */
    get(key: string): T | undefined {
      const answer = entries.get(key);
      if (answer) {
        entries.delete(key);
        entries.set(key, answer);
      }
      return answer;
    },
    /** The answer kept under `key`, leaving the order of use as it is. */
    peek: (key: string): T | undefined => entries.get(key),
    set(key: string, answer: T): void {
      const old = entries.get(key);
      if (old) remove(key, old);
      const size = sizeOf(key, answer);
      // One answer may not take more than an eighth of the whole: a huge list would push out everything else.
      if (size > maxSize / 8) return;
      entries.set(key, answer);
      stats.bytes += size;
      for (const [oldest, value] of entries) {
        if (stats.bytes <= maxSize) break;
        remove(oldest, value);
        stats.evictions++;
      }
    },
  };
}
