/**
 * The field paths a caller may not use in `where` or `sort` (docs/accounts.md):
 * hidden fields, and fields whose `access.read` denies the caller. Were they queryable, a filter would be an
 * oracle: `where[secret][gte]=m` answers "is the secret after m?" without ever returning the secret.
 *
 * A rule is asked once per request, without a document (there is none yet: the query decides which
 * documents there will be), so the query compiler can stay synchronous. A rule that needs a document to say
 * yes — or throws without one — denies: a query must not depend on values some documents hide.
 */
import type { Entity, FieldAccessRule, SanitizedField, Where } from '../config/types.ts';
import type { LocaleOptions } from '../fields/localize.ts';
import { withRequest, type OperationContext } from '../operation-context.ts';
import {
  compileWhere,
  relationshipOf,
  TRUSTED,
  type QueryRights,
  type RelatedQueries,
  type RelatedQuery,
} from '../query/where.ts';
import { checkAccess } from './check-access.ts';

/** A field that may be denied: hidden, or with a read rule; `within` is the path of its guarded ancestor, if any. */
type GuardedField = { path: string; hidden: boolean; rule?: FieldAccessRule; within: string | null };

const NONE: QueryRights = { denied: new Set() };
const guardedByEntity = new WeakMap<Entity, GuardedField[]>();

/** What the caller may query: paths such as `secret`, `seo.token`, `rows.cost` are denied; the system may query all. */
export async function queryRights(ctx: OperationContext, entity: Entity): Promise<QueryRights> {
  if (ctx.overrideAccess) return TRUSTED;
  const guarded = guardedFields(entity);
  // Most collections have no hidden fields and no field rules: nothing to ask, nothing to allocate.
  if (guarded.length === 0) return NONE;
  const denied = new Set<string>();
  for (const field of guarded) {
    // Below a denied field, every path is unreachable already (the compiler checks each prefix).
    if (field.within && isDenied(denied, field.within)) continue;
    if ((field.hidden && !ctx.showHiddenFields) || (field.rule && !(await ruleAllows(ctx, field.rule))))
      denied.add(field.path);
  }
  return { denied };
}

function isDenied(denied: Set<string>, path: string): boolean {
  for (let i = path.indexOf('.'); i !== -1; i = path.indexOf('.', i + 1)) if (denied.has(path.slice(0, i))) return true;
  return denied.has(path);
}

async function ruleAllows(ctx: OperationContext, rule: FieldAccessRule): Promise<boolean> {
  try {
    return Boolean(await rule(withRequest(ctx, { user: ctx.user })));
  } catch {
    return false;
  }
}

function guardedFields(entity: Entity): GuardedField[] {
  let list = guardedByEntity.get(entity);
  if (!list) {
    list = [];
    collectGuarded(entity.fields, '', null, list);
    guardedByEntity.set(entity, list);
  }
  return list;
}

function collectGuarded(fields: SanitizedField[], prefix: string, within: string | null, out: GuardedField[]): void {
  for (const field of fields) {
    const path = prefix + field.name;
    const guarded = Boolean(field.hidden || field.access?.read);
    if (guarded) out.push({ path, hidden: Boolean(field.hidden), rule: field.access?.read, within });
    if (field.fields) collectGuarded(field.fields, `${path}.`, guarded ? path : within, out);
  }
}

/** How many relationships a `where` path may read through (`post.category.title` reads through two). */
export const MAX_RELATION_HOPS = 4;

/**
 * The relationships a caller's `where` reads through (`author.name`, and on through further relationships:
 * `post.category.title`), each with the related collection, the caller's read filter there, what the
 * caller may query there, and the relationships read through from there: at every hop a condition matches
 * only documents the caller could read and fields the caller could query. A related collection the caller
 * may not read at all is left out, so its paths are unknown fields to them, as any denied field is.
 */
export async function relatedQueries(
  ctx: OperationContext,
  entity: Entity,
  where: Where | undefined,
  locale: LocaleOptions | null,
  hops = 1,
): Promise<RelatedQueries | null> {
  // The relationship fields the paths start with, and the rest of each path (as keys of a `where` one hop on).
  const fields = new Map<string, { field: SanitizedField; rest: Where }>();
  const visit = (node: unknown, depth: number): void => {
    if (typeof node !== 'object' || node === null || depth > 8) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'and' || key === 'or') for (const item of Object.values(value ?? {})) visit(item, depth + 1);
      else {
        const field = relationshipOf(entity, key);
        if (!field) continue;
        const entry = fields.get(field.name) ?? { field, rest: {} };
        entry.rest[key.slice(field.name.length + 1)] = {};
        fields.set(field.name, entry);
      }
    }
  };
  visit(where, 0);
  if (fields.size === 0) return null;
  const related = new Map<string, RelatedQuery>();
  for (const { field, rest } of fields.values()) {
    const target = ctx.cms.config.collectionsBySlug.get(field.relationTo as string);
    if (!target) continue;
    const readWhere = await checkAccess(ctx, target, 'read').catch(() => undefined);
    if (readWhere === undefined) continue;
    related.set(field.name, {
      entity: target,
      readFilter: compileWhere(ctx.cms.store.dialect, target, readWhere, locale, TRUSTED),
      rights: await queryRights(ctx, target),
      related: hops < MAX_RELATION_HOPS ? await relatedQueries(ctx, target, rest, locale, hops + 1) : null,
    });
  }
  return related;
}
