/**
 * Related documents for one request, batched: every relationship resolved in the same turn of the
 * executor (all 100 posts' authors) waits for one read per collection (findRelated, the same read
 * REST's population makes), and a document is read at most once per context.
 */
import type { OperationContext } from '../operations/context.ts';
import { findRelated } from '../operations/find-related.ts';
import { getCollection } from '../operations/entities.ts';

type Doc = Record<string, unknown>;
type Batch = { ids: Set<number>; done: Promise<Map<number, Doc>> };

export type RelatedLoader = { load(ctx: OperationContext, collection: string, id: number): Promise<Doc | null> };

const afterThisTurn = (work: () => void) => Promise.resolve().then(() => process.nextTick(work));

export function createRelatedLoader(): RelatedLoader {
  const known = new WeakMap<OperationContext, Map<string, Promise<Doc | null>>>();
  const pending = new WeakMap<OperationContext, Map<string, Batch>>();

  function batchFor(ctx: OperationContext, collection: string): Batch {
    let byCollection = pending.get(ctx);
    if (!byCollection) pending.set(ctx, (byCollection = new Map()));
    let batch = byCollection.get(collection);
    if (batch) return batch;
    const ids = new Set<number>();
    const done = new Promise<Map<number, Doc>>((resolve, reject) => {
      afterThisTurn(() => {
        byCollection!.delete(collection);
        findRelated(ctx, getCollection(ctx.cms, collection), [...ids], 0).then(resolve, reject);
      });
    });
    byCollection.set(collection, (batch = { ids, done }));
    return batch;
  }

  return {
    load(ctx, collection, id) {
      let docs = known.get(ctx);
      if (!docs) known.set(ctx, (docs = new Map()));
      const key = `${collection}:${id}`;
      let doc = docs.get(key);
      if (!doc) {
        const batch = batchFor(ctx, collection);
        batch.ids.add(id);
        docs.set(key, (doc = batch.done.then((found) => found.get(id) ?? null)));
      }
      return doc;
    },
  };
}
