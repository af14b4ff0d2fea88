/**
 * Population of relationship and upload values to `depth`, batched per request: level by level, every id
 * the documents of that level point at is collected across the whole result (at any nesting: groups,
 * arrays, blocks, named tabs), and each related collection is read with one query per level, never one
 * per document or per row. `populateRelationships` is the entry point; where ids sit (fields, and rich
 * text's upload, relationship, link and block nodes) comes from `visitRelations` in src/fields/walk-values.ts.
 */
import type { Entity, SanitizedCollection } from '../../config/types.ts';
import { visitRelations, type RelationSlot } from '../../fields/walk-values.ts';
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

type Slot = RelationSlot;
/**
 * Documents of one collection at one level; `times[i]`: how many times `docs[i]` appears in the answer (a
 * related document shared by many slots is one object, but the answer spells it out under each of them,
 * document-budget.ts), absent where each appears once (the top level) or no count is needed (the last).
 */
type Group = { entity: Entity; docs: Doc[]; times?: number[] };
/** The slots of one collection at one level, and how many times each appears in the answer. */
type Wanted = { slots: Slot[]; times: number[] };
/** Population reads no slot's path. */
const WALK = { keyedByLocale: false, paths: false };
const WALK_KEYED = { keyedByLocale: true, paths: false };

/** Replaces ids by documents in `docs` (already prepared) down to `depth` levels, in place. */
export async function populateRelationships(
  ctx: OperationContext,
  entity: Entity,
  docs: Doc[],
  depth: number,
  narrow: ReadShape['populate'] | undefined,
  steps: PresentSteps,
): Promise<void> {
  const walk = !ctx.locale || ctx.locale === 'all' ? WALK_KEYED : WALK;
  let level: Group[] = [{ entity, docs }];
  // Per level below the top: the related documents read that have hooks to run, and the slots they
  // filled, finished deepest first.
  const filled: { groups: Group[]; assigned: { slot: Slot; doc: Doc }[] }[] = [];
  for (let remaining = depth; remaining > 0 && level.length; remaining--) {
    const bySlug = new Map<string, Wanted>();
    let placed = 0;
    let weight = 1;
    const into = (slot: Slot) => {
      let wanted = bySlug.get(slot.slug);
      if (!wanted) bySlug.set(slot.slug, (wanted = { slots: [], times: [] }));
      wanted.slots.push(slot);
      wanted.times.push(weight);
      placed += weight;
    };
    for (const group of level)
      for (let d = 0; d < group.docs.length; d++) {
        weight = group.times ? group.times[d]! : 1;
        visitRelations(group.entity.fields, group.docs[d]!, into, walk);
      }
    // Counted before reading: a request past its budget reads nothing more.
    spendDocuments(ctx, placed);
    // The last level's documents point at nothing that is read: their counts are not needed.
    const counting = remaining > 1;
    const next: Group[] = [];
    const assigned: { slot: Slot; doc: Doc }[] = [];
    const finishing: Group[] = [];
    for (const [slug, { slots, times }] of bySlug) {
      const related = ctx.cms.config.collectionsBySlug.get(slug);
      const ids = new Set<number>();
      for (const slot of slots) ids.add(slot.id);
      const byId = related ? await readRelated(ctx, related, [...ids]) : null;
      if (!byId) {
        for (const slot of slots) slot.holder[slot.key] = null;
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
      for (let s = 0; s < slots.length; s++) {
        const slot = slots[s]!;
        const i = at.get(slot.id);
        if (i === undefined) {
          slot.holder[slot.key] = null;
          continue;
        }
        const doc = prepared[i]!;
        slot.holder[slot.key] = doc;
        if (finishes) assigned.push({ slot, doc });
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
