/**
 * What a write's relationship and upload values must satisfy beyond their shape: every id names an
 * existing document of its collection, and one the field's `filterOptions` allows (checked in SQL against
 * the target collection, so a filter means the same here as in a list).
 */
import type { SanitizedField, Where } from '../../config/types.ts';
import { visitRelations } from '../../fields/walk-values.ts';
import type { FieldError } from '../../fields/validate.ts';
import { existingIds, selectRowsByIds } from '../../db/documents.ts';
import { compileWhere, TRUSTED } from '../../query/where.ts';
import { localeOf, type OperationContext } from '../../operation-context.ts';

type Doc = Record<string, unknown>;
type Found = { field: SanitizedField; path: string; relationTo: string; id: number; siblingData: Doc };

export async function relationProblems(
  ctx: OperationContext,
  fields: SanitizedField[],
  values: Doc,
  data: Doc,
  id?: number,
): Promise<FieldError[]> {
  const found: Found[] = [];
  const errors: FieldError[] = [];
  visitRelations(
    fields,
    values,
    ({ field, slug, id, path, siblingData }) => {
      // Rich text names its targets node by node: one may name no collection at all.
      if (!ctx.cms.config.collectionsBySlug.has(slug))
        errors.push({ field: path, message: `Unknown collection "${slug}".` });
      else found.push({ field, path, relationTo: slug, id, siblingData });
    },
    { keyedByLocale: ctx.locale === 'all' },
  );
  const bySlug = Map.groupBy(found, (f) => f.relationTo);
  for (const [slug, list] of bySlug) {
    const table = ctx.cms.config.collectionsBySlug.get(slug)!.table;
    const existing = await existingIds(ctx.cms.store, table, [...new Set(list.map((f) => f.id))]);
    for (const f of list)
      if (!existing.has(f.id)) errors.push({ field: f.path, message: `No ${slug} document with id ${f.id}.` });
  }
  if (errors.length) return errors;
  for (const f of found) {
    if (f.field.filterOptions === undefined) continue;
    if (!(await allowedByFilter(ctx, f, data, id)))
      errors.push({ field: f.path, message: `This ${f.relationTo} document cannot be chosen here.` });
  }
  return errors;
}

async function allowedByFilter(ctx: OperationContext, f: Found, data: Doc, id: number | undefined): Promise<boolean> {
  const option = f.field.filterOptions!;
  const where =
    typeof option === 'function'
      ? await option({ id, user: ctx.user, data, siblingData: f.siblingData, relationTo: f.relationTo })
      : option;
  if (where === true) return true;
  if (where === false || where === null || typeof where !== 'object') return false;
  const collection = ctx.cms.config.collectionsBySlug.get(f.relationTo)!;
  const { store } = ctx.cms;
  const rows = await selectRowsByIds(
    store,
    collection,
    [f.id],
    compileWhere(store.dialect, collection, where as Where, localeOf(ctx), TRUSTED),
  );
  return rows.length > 0;
}
