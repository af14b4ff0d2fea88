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
type Group = { entity: Entity; docs: Doc[] };
/** The slots of one collection at one level, and how many times each appears in the answer. */
type Wanted = { slots: Slot[]; times: number[] };

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
  // How many times each document of the level appears in the answer: a related document shared by many
  // slots is one object, but the answer spells it out under each of them (document-budget.ts).
  let shown = new Map<Doc, number>();
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
      for (const doc of group.docs) {
        weight = shown.get(doc) ?? 1;
        visitRelations(group.entity.fields, doc, into, { keyedByLocale });
      }
    // Counted before reading: a request past its budget reads nothing more.
    spendDocuments(ctx, placed);
    // The last level's documents point at nothing that is read: their counts are not needed.
    const nextShown = remaining > 1 ? new Map<Doc, number>() : null;
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
      const presented = new Map<unknown, Doc>();
      for (const doc of prepared) presented.set(doc.id, doc);
      const finishes = steps.finishes(related!);
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        const doc = presented.get(slot.id) ?? null;
        slot.holder[slot.key] = doc;
        if (!doc) continue;
        if (finishes) assigned.push({ slot, doc });
        if (nextShown) nextShown.set(doc, (nextShown.get(doc) ?? 0) + times[i]!);
      }
      const group = { entity: related!, docs: prepared };
      next.push(group);
      if (finishes) finishing.push(group);
    }
    filled.push({ groups: finishing, assigned });
    level = next;
    shown = nextShown ?? shown;
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
