/**
 * One write = one transaction (SQLite: BEGIN IMMEDIATE, so check-then-write is safe across processes).
 * Listeners of the change stream write through the same `tx`, so what a change implies commits with it.
 */
import type { Store } from './store.ts';
import type { ChangeEvent, EventStream, TransactionScope, WriteOrigin } from '../events/change-events.ts';

export async function inTransaction<T>(
  store: Store,
  events: EventStream,
  work: (scope: TransactionScope) => Promise<T>,
  origin: WriteOrigin | null = null,
): Promise<T> {
  const after: (() => void)[] = [];
  const result = await store.transaction(async (tx) => {
    const before: (() => Promise<void>)[] = [];
    const scope: TransactionScope = {
      tx,
      store,
      origin,
      async emit(event: ChangeEvent) {
        for (const listener of events.listeners) await listener(event, scope);
      },
      beforeCommit(fn) {
        before.push(fn);
      },
      afterCommit(fn) {
        after.push(fn);
      },
    };
    const value = await work(scope);
    for (const fn of before) await fn();
    return value;
  });
  for (const fn of after) {
    try {
      fn();
    } catch (error) {
      console.error('after-commit task failed:', error);
    }
  }
  return result;
}
