/**
 * The store's connections, opened one at a time as statements need them, up to the pool size. Bun.SQL's own
 * pool opens all `max` connections at its first query; each costs the database a forked backend that warms
 * its catalogue caches (tens of milliseconds of its CPU), so an instance that serves one request at a time
 * would pay for ten and use one. Here each connection is a Bun.SQL client of its own (`max: 1`), opened when
 * a statement finds every open one taken, then kept (docs/postgres.md, "Pool size").
 */
import type { SQL } from 'bun';

export type Connections = {
  /** Runs `work` on a connection nothing else uses meanwhile; waits for one while `size` are taken. */
  use<T>(work: (connection: SQL) => Promise<T>): Promise<T>;
  /** Closes every connection; `use` then fails. */
  close(): Promise<void>;
};

/** `first`: the connection the start-up check opened; `open` makes another (it connects on its first statement). */
export function lazyConnections(first: SQL, open: () => SQL, size: number): Connections {
  const all: SQL[] = [first];
  const idle: SQL[] = [first];
  const waiting: ((connection: SQL) => void)[] = [];
  let closed = false;
  const take = (): Promise<SQL> => {
    if (closed) return Promise.reject(new Error('The database connections are closed.'));
    const free = idle.pop();
    if (free) return Promise.resolve(free);
    if (all.length < size) {
      const made = open();
      all.push(made);
      return Promise.resolve(made);
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const give = (connection: SQL) => {
    const next = waiting.shift();
    if (next) next(connection);
    else idle.push(connection);
  };
  return {
    async use(work) {
      const connection = await take();
      try {
        return await work(connection);
      } finally {
        give(connection);
      }
    },
    async close() {
      closed = true;
      await Promise.all(all.map((connection) => connection.close().catch(() => {})));
    },
  };
}
