/**
 * The saves this window made, by realtime topic (`posts/12`), so that their echoes through the realtime
 * stream are known for what they are: not a change made elsewhere, and nothing to put back into a form that
 * may have moved on since. A save is known by the `updatedAt` its answer carried; while one is on its way
 * the topic's events wait for it (`saving`, `onSettled`).
 */
import type { Doc } from '../../api.ts';

const stamps = new Map<string, string[]>();
const inFlight = new Map<string, number>();
const settled = new Set<(topic: string) => void>();
/** Enough to cover every echo still on its way; older stamps are forgotten. */
const KEEP = 20;

const stampOf = (doc: Doc | null | undefined) => (doc && typeof doc.updatedAt === 'string' ? doc.updatedAt : null);

/** Runs `save` as this window's save of `topic`, remembering the stored document it answers. */
export async function ownSave<T extends Doc>(topic: string, save: () => Promise<T>): Promise<T> {
  inFlight.set(topic, (inFlight.get(topic) ?? 0) + 1);
  try {
    const doc = await save();
    const stamp = stampOf(doc);
    if (stamp) stamps.set(topic, [...(stamps.get(topic) ?? []), stamp].slice(-KEEP));
    return doc;
  } finally {
    inFlight.set(topic, (inFlight.get(topic) ?? 1) - 1);
    for (const fn of settled) fn(topic);
  }
}

/** Whether `doc` is what one of this window's saves of `topic` stored. */
export const isOwnSave = (topic: string, doc: Doc | null): boolean => {
  const stamp = stampOf(doc);
  return stamp !== null && (stamps.get(topic) ?? []).includes(stamp);
};

/** Whether a save of `topic` from this window is on its way. */
export const saving = (topic: string): boolean => (inFlight.get(topic) ?? 0) > 0;

/** Calls `fn` with the topic each time a save of this window answered (or failed); returns the unsubscribe. */
export function onSettled(fn: (topic: string) => void): () => void {
  settled.add(fn);
  return () => settled.delete(fn);
}

/** The realtime topic of a collection's document. */
export const docTopic = (collection: string, id: string | number) => `${collection}/${id}`;
