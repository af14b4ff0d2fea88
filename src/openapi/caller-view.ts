/**
 * `/openapi.json` per caller: a field whose read rule refuses the caller is left out of their document,
 * as the API leaves it out of their reads, so the document names nothing the caller may not see. The
 * rules are asked with the caller and no document (a rule that needs one, or throws, counts as a refusal);
 * callers whose refused fields are the same share one document text (in practice: one per role).
 */
import type { SanitizedConfig, SanitizedField } from '../config/types.ts';

export type FieldRule = NonNullable<NonNullable<SanitizedField['access']>['read']>;
/** Answers whether the caller may read a field with this rule. */
export type MayRead = (rule: FieldRule) => Promise<boolean>;

/** The dotted keys (`posts.note`, `site.seo.title`) of every field the caller may not read. */
export async function refusedFields(config: SanitizedConfig, mayRead: MayRead): Promise<string[]> {
  const refused: string[] = [];
  const walk = async (owner: string, fields: SanitizedField[]) => {
    for (const field of fields) {
      const rule = field.access?.read;
      const allowed = !rule || (await mayRead(rule).catch(() => false));
      if (!allowed) refused.push(`${owner}.${field.path}`);
      else if (field.fields) await walk(owner, field.fields);
    }
  };
  for (const entity of [...config.collections, ...config.globals]) await walk(entity.slug, entity.fields);
  return refused;
}

/** The config as the caller sees it: refused fields are hidden (the document generator leaves hidden fields out). */
export function callerConfig(config: SanitizedConfig, refused: string[]): SanitizedConfig {
  if (refused.length === 0) return config;
  const set = new Set(refused);
  const hide = (owner: string, fields: SanitizedField[]): SanitizedField[] =>
    fields.map((field) => {
      if (set.has(`${owner}.${field.path}`)) return { ...field, hidden: true };
      return field.fields ? { ...field, fields: hide(owner, field.fields) } : field;
    });
  return {
    ...config,
    collections: config.collections.map((c) => ({ ...c, fields: hide(c.slug, c.fields) })),
    globals: config.globals.map((g) => ({ ...g, fields: hide(g.slug, g.fields) })),
  };
}
