/** One write = one SQLite transaction (BEGIN IMMEDIATE, so check-then-write is safe across processes). */
import type { Database } from 'bun:sqlite';
import type { ChangeEvent, EventStream, TransactionScope } from '../events/change-events.ts';

export function inTransaction<T>(sqlite: Database, events: EventStream, work: (scope: TransactionScope) => T): T {
  const after: (() => void)[] = [];
  const scope: TransactionScope = {
    emit(event: ChangeEvent) {
      for (const listener of events.listeners) listener(event, scope);
    },
    afterCommit(fn) {
      after.push(fn);
    },
  };
  const result = sqlite.transaction(() => work(scope)).immediate();
  for (const fn of after) {
    try {
      fn();
    } catch (error) {
      console.error('after-commit task failed:', error);
    }
  }
  return result;
}
