/**
 * `select` and `populate` (Payload's spelling, docs/payload-compatibility.md): `select[title]=true` returns only the named
 * fields (and `id`), `select[body]=false` returns all but them; dot paths and nested brackets reach into
 * groups and arrays. `populate[<collection>][<field>]=true` does the same for the documents of that
 * collection wherever they are populated. Paths are checked like `where` paths: a field the caller may not
 * read (hidden, or denied by its read rule) is an unknown field here too, so a selection cannot probe it.
 */
import { badRequest } from '../errors.ts';
import type { Entity, SanitizedField } from '../config/types.ts';
import type { QueryRights } from './where.ts';

export type SelectTree = { [name: string]: true | false | SelectTree };
/** `include`: only the tree's fields (plus `id`); otherwise every field but the tree's. */
export type Selection = { include: boolean; tree: SelectTree };
/** `richText`: rich text values answered as strings in that format (src/richtext/convert-values.ts). */
export type ReadShape = { select?: Selection; populate?: Record<string, Selection>; richText?: RichTextFormat };

import type { RichTextFormat } from '../richtext/convert-values.ts';

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const MAX_SELECT_DEPTH = 8;
const SYSTEM = new Set(['id', 'createdAt', 'updatedAt']);

/** Query-string or Local API form → a Selection; undefined when nothing is selected. */
export function parseSelect(value: unknown, name = 'select'): Selection | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isObject(value)) throw badRequest(`"${name}" must be an object such as ${name}[title]=true.`, name);
  const leaves = new Set<boolean>();
  const tree = readTree(value, name, leaves, 0);
  if (leaves.size === 0) return undefined;
  if (leaves.size > 1)
    throw badRequest(`"${name}" takes either fields to include (true) or fields to leave out (false), not both.`, name);
  return { include: leaves.has(true), tree };
}

function readTree(value: Record<string, unknown>, name: string, leaves: Set<boolean>, depth: number): SelectTree {
  if (depth > MAX_SELECT_DEPTH) throw badRequest(`"${name}" is nested too deeply.`, name);
  const tree: SelectTree = {};
  for (const [rawKey, raw] of Object.entries(value)) {
    // `select[seo.title]=true` and `select[seo][title]=true` are the same selection.
    const path = rawKey.split('.');
    let holder = tree;
    for (const segment of path.slice(0, -1)) {
      const next = holder[segment];
      holder = (holder[segment] = isObject(next) ? next : {}) as SelectTree;
    }
    const last = path[path.length - 1];
    if (isObject(raw)) {
      const inner = readTree(raw, name, leaves, depth + 1);
      holder[last] = isObject(holder[last]) ? { ...(holder[last] as SelectTree), ...inner } : inner;
      continue;
    }
    const flag =
      raw === true || raw === 'true' || raw === '1'
        ? true
        : raw === false || raw === 'false' || raw === '0'
          ? false
          : null;
    if (flag === null) throw badRequest(`"${name}[${rawKey}]" must be true or false.`, name);
    leaves.add(flag);
    holder[last] = flag;
  }
  return tree;
}

/** `populate[<collection>]…` → a Selection per collection slug. */
export function parsePopulate(value: unknown): Record<string, Selection> | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isObject(value))
    throw badRequest('"populate" must be an object such as populate[users][name]=true.', 'populate');
  const out: Record<string, Selection> = {};
  for (const [slug, inner] of Object.entries(value)) {
    const selection = parseSelect(inner, `populate[${slug}]`);
    if (selection) out[slug] = selection;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Every path must name a field the caller may read; else a 400 naming it, as `where` answers. */
export function checkSelection(entity: Entity, selection: Selection, rights: QueryRights): void {
  const denied = 'denied' in rights ? rights.denied : null;
  const walk = (fields: SanitizedField[], tree: SelectTree, prefix: string, top: boolean) => {
    for (const [name, value] of Object.entries(tree)) {
      const path = prefix + name;
      const known = top && (SYSTEM.has(name) || (entity.drafts && (name === 'status' || name === '_status')));
      const field = known ? undefined : fields.find((f) => f.name === name);
      if ((!known && !field) || denied?.has(path)) throw badRequest(`The field "${path}" does not exist.`, path);
      if (isObject(value)) {
        if (!field?.fields) throw badRequest(`The field "${path}" has no fields to select.`, path);
        walk(field.fields, value, `${path}.`, false);
      }
    }
  };
  walk(entity.fields, selection.tree, '', true);
}

/** The document with only what the selection keeps; `status` and `_status` go together. */
export function applySelection(doc: Doc, selection: Selection): Doc {
  return selection.include ? keep(doc, selection.tree, true) : drop(doc, selection.tree);
}

function keep(doc: Doc, tree: SelectTree, top: boolean): Doc {
  const out: Doc = top && 'id' in doc ? { id: doc.id } : {};
  for (const [name, value] of Object.entries(tree)) {
    const names = top && (name === 'status' || name === '_status') ? ['status', '_status'] : [name];
    for (const n of names) {
      if (!(n in doc)) continue;
      out[n] = value === true ? doc[n] : isObject(value) ? nested(doc[n], (d) => keep(d, value, false)) : doc[n];
    }
  }
  return out;
}

function drop(doc: Doc, tree: SelectTree): Doc {
  const out: Doc = { ...doc };
  for (const [name, value] of Object.entries(tree)) {
    if (value === false) {
      delete out[name];
      if (name === 'status' || name === '_status') delete out[name === 'status' ? '_status' : 'status'];
    } else if (isObject(value) && name in out) out[name] = nested(out[name], (d) => drop(d, value));
  }
  return out;
}

/** Into a group (an object) or every row of an array; other values (null, ids) stay as they are. */
function nested(value: unknown, apply: (doc: Doc) => Doc): unknown {
  if (Array.isArray(value)) return value.map((row) => (isObject(row) ? apply(row) : row));
  return isObject(value) ? apply(value) : value;
}
