/**
 * Related documents for one request, batched: every relationship resolved in the same turn of the
 * executor (all 100 posts' authors) waits for one read per collection (findRelated, the same read
 * REST's population makes), and a document is read at most once per context. Join fields are batched
 * the same way: one read of the joined collection for every document of the turn that asks the same
 * join with the same arguments (readJoin, the read REST's `joins` makes). Documents read here leave
 * their own join fields out: GraphQL reads a join only when it is selected.
 */
import type { SanitizedCollection, SanitizedField } from '../config/types.ts';
import type { OperationContext } from '../operation-context.ts';
import { findRelated } from '../operations/find-related.ts';
import { getCollection } from '../operations/steps/entities.ts';
import { readJoin } from '../operations/steps/joins.ts';
import { presentDocs } from '../operations/steps/present.ts';
import type { JoinQuery } from '../query/join-options.ts';

type Doc = Record<string, unknown>;
/** A join field's value: the joined documents (at depth 0), paged. */
export type JoinValue = { docs: unknown[]; hasNextPage: boolean; totalDocs: number };
type Batch<T> = { ids: Set<number>; done: Promise<Map<number, T>> };

export type RelatedLoader = {
  load(ctx: OperationContext, collection: string, id: number): Promise<Doc | null>;
  join(
    ctx: OperationContext,
    owner: SanitizedCollection,
    field: SanitizedField,
    query: JoinQuery,
    id: number,
  ): Promise<JoinValue | null>;
};

const afterThisTurn = (work: () => void) => Promise.resolve().then(() => process.nextTick(work));

/** Ids asked under one key in one turn, read together by `read` once the turn ends. */
function batcher<T>() {
  const pending = new WeakMap<OperationContext, Map<string, Batch<T>>>();
  return (
    ctx: OperationContext,
    key: string,
    id: number,
    read: (ids: number[]) => Promise<Map<number, T>>,
  ): Promise<T | null> => {
    let byKey = pending.get(ctx);
    if (!byKey) pending.set(ctx, (byKey = new Map()));
    let batch = byKey.get(key);
    if (!batch) {
      const ids = new Set<number>();
      const done = new Promise<Map<number, T>>((resolve, reject) => {
        afterThisTurn(() => {
          byKey!.delete(key);
          read([...ids]).then(resolve, reject);
        });
      });
      byKey.set(key, (batch = { ids, done }));
    }
    batch.ids.add(id);
    return batch.done.then((found) => found.get(id) ?? null);
  };
}

export function createRelatedLoader(): RelatedLoader {
  const known = new WeakMap<OperationContext, Map<string, Promise<Doc | null>>>();
  const related = batcher<Doc>();
  const joined = batcher<JoinValue>();

  return {
    load(ctx, collection, id) {
      let docs = known.get(ctx);
      if (!docs) known.set(ctx, (docs = new Map()));
      const key = `${collection}:${id}`;
      let doc = docs.get(key);
      if (!doc)
        docs.set(
          key,
          (doc = related(ctx, collection, id, (ids) =>
            findRelated(ctx, getCollection(ctx.cms, collection), ids, 0, false),
          )),
        );
      return doc;
    },
    join(ctx, owner, field, query, id) {
      return joined(ctx, JSON.stringify([owner.slug, field.name, query]), id, async (ids) => {
        const docs: Doc[] = ids.map((i) => ({ id: i }));
        // Depth 1: the joined documents come presented in the same read (their own joins left to the selection).
        await readJoin(ctx, owner, field, docs, 1, query, (c, e, rows, depth) =>
          presentDocs(c, e, rows, depth, undefined, false),
        );
        return new Map(docs.map((d) => [d.id as number, d[field.name] as JoinValue]));
      });
    },
  };
}
