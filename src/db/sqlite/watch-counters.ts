/**
 * `Store.watchChanges` on SQLite: while someone watches, the change counters are looked at every
 * `POLL_MS` (a pragma in a read transaction unless something committed: src/db/sqlite/store.ts) and at once
 * after this store's own commits; each counter that moved is reported by name.
 */
type Counters = ReadonlyMap<string, number>;

/** How soon a commit of another process (the CLI, a Local API script) is noticed. */
export const POLL_MS = 50;

export function watchCounters(read: () => Promise<Counters>) {
  const watchers = new Set<(name: string | null) => void>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let last: Counters | null = null;
  let looking = false;
  let again = false;
  const look = async () => {
    if (looking) return void (again = true);
    looking = true;
    try {
      do {
        again = false;
        const now = await read();
        const before = last;
        last = now;
        if (!before || now === before) continue;
        for (const [name, version] of now)
          if (before.get(name) !== version) for (const watcher of watchers) watcher(name);
      } while (again && watchers.size > 0);
    } catch {
      // A closed store: nothing more to report.
    } finally {
      looking = false;
    }
  };
  return {
    watch(watcher: (name: string | null) => void): () => void {
      watchers.add(watcher);
      if (!timer) {
        void look();
        timer = setInterval(() => void look(), POLL_MS);
      }
      return () => {
        watchers.delete(watcher);
        if (watchers.size === 0 && timer) {
          clearInterval(timer);
          timer = null;
          last = null;
        }
      };
    },
    /** After a commit of this store. */
    look() {
      if (watchers.size > 0) queueMicrotask(() => void look());
    },
    stop() {
      watchers.clear();
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
