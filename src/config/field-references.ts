/** Checks what fields name in other collections, once every collection is known: relationTo targets and join fields' `on`. */
import type { Entity, SanitizedCollection, SanitizedField } from './types.ts';
import { relationTargets, isRelationField } from './relation-targets.ts';
import { configKeyOf } from './sanitize-fields.ts';

type Fail = (key: string, message: string) => never;

/** The fields a field holds: a group's or array's, or every block's (blocks hold several field lists). */
export function childFieldLists(field: SanitizedField): SanitizedField[][] {
  const blocks = (field as { blocks?: { fields?: SanitizedField[] }[] }).blocks;
  if (Array.isArray(blocks)) return blocks.map((b) => b.fields ?? []);
  return field.fields ? [field.fields] : [];
}

/** The field at a dot path (`author`, `meta.author`, `layout.author`), looking through groups, arrays and blocks. */
export function fieldAtPath(fields: SanitizedField[], path: string): SanitizedField | null {
  const [head, ...rest] = path.split('.');
  const field = fields.find((f) => f.name === head);
  if (!field || rest.length === 0) return field ?? null;
  for (const list of childFieldLists(field)) {
    const found = fieldAtPath(list, rest.join('.'));
    if (found) return found;
  }
  return null;
}

export function checkFieldReferences(
  entity: Entity,
  key: string,
  collections: Map<string, SanitizedCollection>,
  fail: Fail,
): void {
  // Fields at any nesting (groups, named tabs, array and block rows), named by where the config wrote them.
  const visit = (fields: SanitizedField[], base: string) =>
    fields.forEach((field, i) => {
      const at = configKeyOf(field) ?? `${base}[${i}]`;
      if (isRelationField(field)) {
        for (const slug of relationTargets(field))
          if (!collections.has(slug)) fail(`${at}.relationTo`, `unknown collection "${slug}"`);
      }
      if (field.type === 'join') checkJoin(entity, field, at, collections, fail);
      for (const list of childFieldLists(field)) visit(list, `${at}.fields`);
    });
  visit(entity.fields, `${key}.fields`);
}

function checkJoin(
  entity: Entity,
  field: SanitizedField,
  at: string,
  collections: Map<string, SanitizedCollection>,
  fail: Fail,
): void {
  if (entity.kind !== 'collection')
    fail(at, 'join fields belong to collections (a global has no documents to point at)');
  const target = collections.get(field.collection!);
  if (!target) fail(`${at}.collection`, `unknown collection "${field.collection}"`);
  const on = fieldAtPath(target!.fields, field.on!);
  if (!on || !isRelationField(on))
    fail(`${at}.on`, `"${field.on}" is not a relationship or upload field of ${field.collection}`);
  if (!relationTargets(on!).includes(entity.slug))
    fail(`${at}.on`, `${field.collection}.${field.on} does not point at ${entity.slug}`);
}
