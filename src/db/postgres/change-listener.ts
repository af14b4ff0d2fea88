/**
 * Listening on the `cms_changes` channel (a trigger announces every bump of a change counter, at commit:
 * migrations/system-postgres/0006_change_log.sql), on a connection of its own. While it is healthy, an
 * instance knows which tables any instance changed without asking: the change counters are re-read only
 * after a notification, and realtime wakes at once. When the connection drops it is unhealthy until it is
 * back and listening again; callers then ask the database every time, and are told `null` ("anything may
 * have changed meanwhile") once it is back, so they catch up with one read.
 */
import type { SQL } from 'bun';

export const CHANGES_CHANNEL = 'cms_changes';

export type ChangeListener = {
  /** True while notifications are known to arrive. */
  healthy(): boolean;
  /** `name`: the counter that changed; null after a reconnect. */
  onChange(listener: (name: string | null) => void): () => void;
  close(): Promise<void>;
};

export function listenForChanges(url: string): ChangeListener {
  const listeners = new Set<(name: string | null) => void>();
  let healthy = false;
  let closed = false;
  const tell = (name: string | null) => {
    for (const listener of listeners) {
      try {
        listener(name);
      } catch (error) {
        console.error('change listener failed:', error);
      }
    }
  };
  // This client only listens: its one connection is the listening one, which Bun.SQL reconnects (with
  // backoff) and subscribes again by itself, calling `onlisten` each time the LISTEN is acknowledged.
  const sql: SQL = new Bun.SQL(url, {
    max: 1,
    onclose: () => {
      healthy = false;
    },
  });
  const subscription = sql
    .listen(
      CHANGES_CHANNEL,
      (payload: string) => tell(payload),
      () => {
        if (closed) return;
        healthy = true;
        tell(null);
      },
    )
    .catch(() => null);
  return {
    healthy: () => healthy && !closed,
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      closed = true;
      healthy = false;
      listeners.clear();
      await (await subscription)?.unlisten().catch(() => {});
      await sql.close().catch(() => {});
    },
  };
}
