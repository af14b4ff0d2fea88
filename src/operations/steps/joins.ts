/**
 * Join fields: the documents of another collection whose relationship field (`on`) points at each read
 * document, as `{ docs, hasNextPage, totalDocs }`. One query per join field for a whole list of
 * documents (never one per document): every matching document of the joined collection is read in the
 * join's order, grouped by the document it points at, then paged per document. Read under the reader's
 * access to the joined collection; at depth 0 `docs` are ids, above it documents (one level less deep,
 * without their own joins).
 */
import type { Entity, SanitizedCollection, SanitizedField, Where } from '../../config/types.ts';
import { isPolymorphic } from '../../config/relation-targets.ts';
import { fieldAtPath } from '../../config/field-references.ts';
import { badRequest } from '../../errors.ts';
import { rowToDoc } from '../../fields/row.ts';
import { relationSlots } from '../../fields/relationship-values.ts';
import { visitValues } from '../../fields/walk-values.ts';
import { selectRows } from '../../db/documents.ts';
import { andParts } from '../../db/store.ts';
import { compileSort } from '../../query/sort.ts';
import { compileWhere, TRUSTED } from '../../query/where.ts';
import type { JoinQuery, JoinRequest } from '../../query/join-options.ts';
import { checkAccess } from '../../access/check-access.ts';
import { queryRights } from '../../access/query-rights.ts';
import { localeOf, type OperationContext } from '../../operation-context.ts';
import { spendDocuments } from './document-budget.ts';

type Doc = Record<string, unknown>;
type Present = (ctx: OperationContext, entity: Entity, stored: Doc[], depth: number) => Promise<Doc[]>;

export function joinFieldsOf(entity: Entity): SanitizedField[] {
  return entity.kind === 'collection' ? entity.fields.filter((f) => f.type === 'join') : [];
}

export async function readJoins(
  ctx: OperationContext,
  entity: Entity,
  docs: Doc[],
  depth: number,
  request: JoinRequest,
  present: Present,
): Promise<void> {
  const fields = joinFieldsOf(entity);
  if (request === false || fields.length === 0 || docs.length === 0) return;
  for (const name of Object.keys(request)) {
    if (!fields.some((f) => f.name === name))
      throw badRequest(`"${name}" is not a join field of ${(entity as SanitizedCollection).slug}.`, `joins.${name}`);
  }
  for (const field of fields)
    await readJoin(ctx, entity as SanitizedCollection, field, docs, depth, request[field.name] ?? {}, present);
}

/** One join field's value on each of `docs` (their ids are all it reads of them), with `query`'s paging. */
export async function readJoin(
  ctx: OperationContext,
  entity: SanitizedCollection,
  field: SanitizedField,
  docs: Doc[],
  depth: number,
  query: JoinQuery,
  present: Present,
): Promise<void> {
  const target = ctx.cms.config.collectionsBySlug.get(field.collection!)!;
  const limit = query.limit ?? field.defaultLimit ?? 10;
  const page = query.page ?? 1;
  const empty = () => {
    for (const doc of docs) doc[field.name] = { docs: [], hasNextPage: false, totalDocs: 0 };
  };
  let accessWhere: Where | null;
  try {
    accessWhere = await checkAccess(ctx, target, 'read');
  } catch {
    return empty();
  }
  const ids = docs.map((d) => d.id).filter((id): id is number => typeof id === 'number');
  if (ids.length === 0) return empty();
  const on = field.on!;
  const pointsHere: Where = isPolymorphic(fieldAtPath(target.fields, on)!)
    ? { [`${on}.relationTo`]: { equals: entity.slug }, [`${on}.value`]: { in: ids } }
    : { [on]: { in: ids } };
  const { store } = ctx.cms;
  const locale = localeOf(ctx);
  const rights = await queryRights(ctx, target);
  const where = andParts([
    compileWhere(store.dialect, target, accessWhere, locale, TRUSTED),
    compileWhere(store.dialect, target, field.where, locale, TRUSTED),
    compileWhere(store.dialect, target, pointsHere, locale, TRUSTED),
    compileWhere(store.dialect, target, query.where, locale, rights),
  ]);
  const sort = query.sort ?? field.defaultSort ?? (target as { defaultSort?: string }).defaultSort;
  const rows = await selectRows(
    store,
    target,
    where,
    compileSort(store.dialect, target, sort, locale, rights),
    null,
    0,
  );
  const related = rows.map((row) => rowToDoc(target, row));

  // Each related document, in the join's order, under every read document it points at.
  const onField = fieldAtPath(target.fields, on)!;
  const byParent = new Map<number, Doc[]>();
  for (const doc of related) {
    for (const parent of pointedAt(target.fields, onField, entity.slug, doc)) {
      const list = byParent.get(parent) ?? [];
      if (!list.includes(doc)) list.push(doc);
      byParent.set(parent, list);
    }
  }
  const pages = new Map<number, Doc[]>();
  for (const [parent, list] of byParent) pages.set(parent, list.slice((page - 1) * limit, page * limit));
  const shown = [...new Set([...pages.values()].flat())];
  if (depth > 0) {
    let placed = 0;
    for (const doc of docs) placed += pages.get(doc.id as number)?.length ?? 0;
    spendDocuments(ctx, placed);
  }
  const presented =
    depth > 0 ? new Map((await present(ctx, target, shown, depth - 1)).map((d) => [d.id as number, d])) : null;
  for (const doc of docs) {
    const list = byParent.get(doc.id as number) ?? [];
    const slice = pages.get(doc.id as number) ?? [];
    doc[field.name] = {
      docs: slice.map((d) => (presented ? (presented.get(d.id as number) ?? null) : d.id)),
      hasNextPage: page * limit < list.length,
      totalDocs: list.length,
    };
  }
}

/** The ids of `slug` documents that the stored document's field `onField` points at (any locale, any row). */
function pointedAt(fields: SanitizedField[], onField: SanitizedField, slug: string, doc: Doc): Set<number> {
  const ids = new Set<number>();
  visitValues(
    fields,
    doc,
    (field) => field === onField,
    ({ field, holder, key }) => {
      for (const slot of relationSlots(field, holder, key)) if (slot.relationTo === slug) ids.add(slot.id);
    },
    { keyedByLocale: true },
  );
  return ids;
}
