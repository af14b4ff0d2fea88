/** The SQL text of every statement the store reads with (`all`, `get`) while `run` runs: for counting queries. */
import type { TestServer } from '../harness.ts';

export async function statementsDuring(t: TestServer, run: () => Promise<unknown>): Promise<string[]> {
  const store = t.cms.store as unknown as Record<string, (...args: unknown[]) => unknown>;
  const seen: string[] = [];
  const originals = { all: store.all, get: store.get };
  for (const name of ['all', 'get'] as const) {
    store[name] = function (this: unknown, ...args: unknown[]) {
      seen.push(String(args[0]));
      return originals[name].apply(this, args);
    };
  }
  try {
    await run();
  } finally {
    Object.assign(store, originals);
  }
  return seen;
}
