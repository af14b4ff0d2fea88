/**
 * One file-changing write at a time per media document, in this process. A replacement or a reframe
 * reads the document's current files, stores new ones, saves, then removes the files it displaced; two at
 * once would both displace the same old files and each leave the other's new ones behind, named by no
 * document until the leftover sweep an hour later. Taking turns, each one displaces what the one before
 * it stored. (Another process's concurrent write is not in this turn: what that leaves, the sweep takes.)
 */
import type { CMS } from '../../cms.ts';

const byInstance = new WeakMap<CMS, Map<string, Promise<void>>>();

/** Runs `work` once every earlier turn of `key` has finished, successfully or not. */
export async function inDocumentTurn<T>(cms: CMS, key: string, work: () => Promise<T>): Promise<T> {
  let turns = byInstance.get(cms);
  if (!turns) byInstance.set(cms, (turns = new Map()));
  const before = turns.get(key) ?? Promise.resolve();
  let finish!: () => void;
  const mine = before.then(() => new Promise<void>((resolve) => (finish = resolve)));
  turns.set(key, mine);
  await before;
  try {
    return await work();
  } finally {
    finish();
    if (turns.get(key) === mine) turns.delete(key);
  }
}

export const documentTurnKey = (collection: string, id: number) => `${collection}:${id}`;
