/**
 * Population of relationship and upload values to `depth`, batched per request: level by level, every id
 * the documents of that level point at is collected across the whole result (at any nesting: groups,
 * arrays, blocks, named tabs), and each related collection is read with one query per level, never one
 * per document or per row. `populateRelationships` is the entry point; where ids sit (fields, and rich
 * text's upload, relationship, link and block nodes) comes from `visitRelations` in src/fields/walk-values.ts.
 */
import type { Entity, SanitizedCollection } from '../../config/types.ts';
import { visitRelationIds } from '../../fields/walk-values.ts';
import { rowToDoc } from '../../fields/row.ts';
import { selectRowsByIds } from '../../db/documents.ts';
import { withoutTrashed } from '../trash.ts';
import { compileWhere, TRUSTED } from '../../query/where.ts';
import { checkAccess } from '../../access/check-access.ts';
import { localeOf, type OperationContext } from '../../operation-context.ts';
import type { ReadShape } from '../../query/select.ts';
import { spendDocuments } from './document-budget.ts';

type Doc = Record<string, unknown>;

/**
 * The halves of presenting a document: everything before population, and what runs after it (afterRead);
 * `finishes` says whether `finish` may change a document of `entity` at all (it has hooks to run).
 */
export type PresentSteps = {
  prepare(ctx: OperationContext, entity: Entity, stored: Doc[], shape?: ReadShape): Promise<Doc[]>;
  finish(ctx: OperationContext, entity: Entity, doc: Doc): Promise<Doc>;
  finishes(entity: Entity): boolean;
};

/** Where one id sits: `holder[key]`. */
type Slot = { holder: Record<string | number, unknown>; key: string | number };
/**
 * Documents of one collection at one level; `times[i]`: how many times `docs[i]` appears in the answer (a
 * related document shared by many slots is one object, but the answer spells it out under each of them,
 * document-budget.ts), absent where each appears once (the top level) or no count is needed (the last).
 */
type Group = { entity: Entity; docs: Doc[]; times?: number[] };
/**
 * The slots of one collection at one level, as lists side by side (no object per slot): slot `s` is
 * `holders[s][keys[s]]`, holding `ids[s]`, and appears `times[s]` times in the answer.
 */
type Wanted = {
  holders: Record<string | number, unknown>[];
  keys: (string | number)[];
  ids: number[];
  times: number[];
};

/** Replaces ids by documents in `docs` (already prepared) down to `depth` levels, in place. */
export async function populateRelationships(
  ctx: OperationContext,
  entity: Entity,
  docs: Doc[],
  depth: number,
  narrow: ReadShape['populate'] | undefined,
  steps: PresentSteps,
): Promise<void> {
  const keyedByLocale = !ctx.locale || ctx.locale === 'all';
  let level: Group[] = [{ entity, docs }];
  // Per level below the top: the related documents read that have hooks to run, and the slots they
  // filled, finished deepest first.
  const filled: { groups: Group[]; assigned: { slot: Slot; doc: Doc }[] }[] = [];
  for (let remaining = depth; remaining > 0 && level.length; remaining--) {
    const bySlug = new Map<string, Wanted>();
    let placed = 0;
    let weight = 1;
    // Slots of one collection mostly come in a row: the last one's lists are at hand.
    let lastSlug = '';
    let last: Wanted | undefined;
    const into = (
      slug: string,
      id: number,
      holder: Record<string | number, unknown> | unknown[],
      key: string | number,
    ) => {
      let wanted = slug === lastSlug ? last : bySlug.get(slug);
      if (!wanted) bySlug.set(slug, (wanted = { holders: [], keys: [], ids: [], times: [] }));
      lastSlug = slug;
      last = wanted;
      wanted.holders.push(holder as Record<string | number, unknown>);
      wanted.keys.push(key);
      wanted.ids.push(id);
      wanted.times.push(weight);
      placed += weight;
    };
    for (const group of level)
      for (let d = 0; d < group.docs.length; d++) {
        weight = group.times ? group.times[d]! : 1;
        visitRelationIds(group.entity.fields, group.docs[d]!, into, keyedByLocale);
      }
    // Counted before reading: a request past its budget reads nothing more.
    spendDocuments(ctx, placed);
    // The last level's documents point at nothing that is read: their counts are not needed.
    const counting = remaining > 1;
    const next: Group[] = [];
    const assigned: { slot: Slot; doc: Doc }[] = [];
    const finishing: Group[] = [];
    for (const [slug, { holders, keys, ids, times }] of bySlug) {
      const related = ctx.cms.config.collectionsBySlug.get(slug);
      const byId = related ? await readRelated(ctx, related, [...new Set(ids)]) : null;
      if (!byId) {
        for (let s = 0; s < holders.length; s++) holders[s]![keys[s]!] = null;
        continue;
      }
      const prepared = await steps.prepare(
        ctx,
        related!,
        byId.rows,
        narrow ? { select: narrow[slug], populate: narrow } : undefined,
      );
      const at = new Map<unknown, number>();
      for (let i = 0; i < prepared.length; i++) at.set(prepared[i]!.id, i);
      const shown = counting ? new Array<number>(prepared.length).fill(0) : undefined;
      const finishes = steps.finishes(related!);
      for (let s = 0; s < holders.length; s++) {
        const i = at.get(ids[s]);
        if (i === undefined) {
          holders[s]![keys[s]!] = null;
          continue;
        }
        const doc = prepared[i]!;
        holders[s]![keys[s]!] = doc;
        if (finishes) assigned.push({ slot: { holder: holders[s]!, key: keys[s]! }, doc });
        if (shown) shown[i]! += times[s]!;
      }
      const group = { entity: related!, docs: prepared, times: shown };
      next.push(group);
      if (finishes) finishing.push(group);
    }
    filled.push({ groups: finishing, assigned });
    level = next;
  }
  // afterRead sees its document populated, so the deepest level finishes first.
  for (const { groups, assigned } of filled.reverse()) {
    const finished = new Map<Doc, Doc>();
    for (const group of groups)
      for (const doc of group.docs) finished.set(doc, await steps.finish(ctx, group.entity, doc));
    for (const { slot, doc } of assigned) slot.holder[slot.key] = finished.get(doc) ?? doc;
  }
}

/** The stored documents of `ids` the reader may read (one query), or null when the collection is not readable at all. */
export async function readRelated(
  ctx: OperationContext,
  related: SanitizedCollection,
  ids: number[],
): Promise<{ rows: Doc[] } | null> {
  let accessWhere = null;
  try {
    accessWhere = withoutTrashed(related, await checkAccess(ctx, related, 'read'));
  } catch {
    return null;
  }
  const rows = await selectRowsByIds(
    ctx.cms.store,
    related,
    ids,
    compileWhere(ctx.cms.store.dialect, related, accessWhere, localeOf(ctx), TRUSTED),
  );
  return { rows: rows.map((r) => rowToDoc(related, r)) };
}
