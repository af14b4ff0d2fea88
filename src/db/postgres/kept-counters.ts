/**
 * The change counters of a PostgreSQL store, kept in memory while the instance listens for changes
 * (./change-listener.ts): read again only after a notification, a reconnect or this store's own write, so
 * a kept answer of the response cache is served without a query. While the listening connection is down
 * every call asks the database, as before. The listening connection opens on first use, so a command that
 * never reads through the cache (migrate, export) opens none.
 */
import { listenForChanges, type ChangeListener } from './change-listener.ts';

type Counters = ReadonlyMap<string, number>;

/**
 * The oldest a kept reading may be when it is used, in ms from the moment its query started: a
 * notification that is late (a busy machine, a slow link to the database) then delays another instance's
 * commit by this much at most. Under steady traffic that is one small query per instance this often; idle,
 * none. Real time, not `cms.clock`: it bounds how late a delivery may be, it does not wait for anything.
 */
export const MAX_READING_AGE_MS = 10;

export function keptCounters(url: string, read: () => Promise<Counters>) {
  let listener: ChangeListener | null = null;
  let closed = false;
  let kept: Counters | null = null;
  let inFlight: Promise<Counters> | null = null;
  /** When the query of `kept` and of `inFlight` started (performance.now()). */
  let keptAsked = 0;
  let inFlightAsked = 0;
  let stale = true;
  let started = 0;
  let settled = 0;
  const local = new Set<(name: string | null) => void>();
  const listening = () => {
    if (!listener && !closed) {
      listener = listenForChanges(url);
      listener.onChange(() => void (stale = true));
    }
    return listener;
  };
  return {
    async changeCounters(options: { exact?: boolean } = {}): Promise<Counters> {
      const live = listening();
      if (options.exact || !live?.healthy()) return read();
      const oldest = performance.now() - MAX_READING_AGE_MS;
      // A reading asked since the last change: callers arriving meanwhile share it rather than the older kept one.
      if (!stale && inFlight && inFlightAsked >= oldest) return inFlight;
      if (kept && !stale && keptAsked >= oldest) return kept;
      // Marked fresh before asking: a notification arriving during the read makes the next call ask again.
      stale = false;
      const mine = ++started;
      const asked = performance.now();
      const reading = read().then((counters) => {
        // An older read finishing after a newer one must not replace it.
        if (mine > settled) {
          settled = mine;
          kept = counters;
          keptAsked = asked;
        }
        return counters;
      });
      inFlight = reading;
      inFlightAsked = asked;
      const done = () => {
        if (inFlight === reading) inFlight = null;
      };
      reading.then(done, done);
      return reading;
    },
    watchChanges(fn: (name: string | null) => void): () => void {
      local.add(fn);
      const stop = listening()?.onChange(fn);
      return () => {
        local.delete(fn);
        stop?.();
      };
    },
    /** After this store's own write: the next reading asks, and watchers look at once. */
    wrote() {
      stale = true;
      for (const fn of local) fn(null);
    },
    async close() {
      closed = true;
      local.clear();
      await listener?.close();
    },
  };
}
