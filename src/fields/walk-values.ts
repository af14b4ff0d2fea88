/**
 * A walker over (field tree, value): every place in a document where a field of a wanted kind holds a
 * value, at any nesting (groups, array rows, block rows, named tabs, which are groups), with the object and
 * key that hold it so a caller can replace it in place (population does). Each kind says which objects
 * its value holds (fields/kinds/); layout fields never appear in stored field lists.
 */
import type { SanitizedField } from '../config/types.ts';
import { isPolymorphic, isRelationField } from '../config/relation-targets.ts';
import { kindOf } from './kinds/index.ts';
import { eachRelationSlot, type SlotVisit } from './relationship-values.ts';
import { isRichTextValue, visitNodes, type RichTextValue } from '../richtext/nodes.ts';

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

export type ValueLocation = {
  field: SanitizedField;
  /** The object (or, for one locale of a localized value, the per-locale record) that holds the value. */
  holder: Record<string, unknown>;
  key: string;
  value: unknown;
  /** Where it is in the document, e.g. `layout.2.cover` (a locale of a localized value adds its code). */
  path: string;
};

export type WalkOptions = {
  /** Localized values are records keyed by locale (stored documents, `locale=all` reads); else one locale's value. */
  keyedByLocale: boolean;
};

/** Calls `visit` for every non-empty value of a field for which `wanted(field)` holds. */
export function visitValues(
  fields: SanitizedField[],
  doc: Doc,
  wanted: (field: SanitizedField) => boolean,
  visit: (location: ValueLocation) => void,
  options: WalkOptions,
  prefix = '',
): void {
  for (const field of fields) {
    const value = doc[field.name];
    if (value === null || value === undefined) continue;
    const path = prefix ? `${prefix}.${field.name}` : field.name;
    if (field.localized && options.keyedByLocale && isObject(value) && !isOwnObject(field, value)) {
      for (const [locale, own] of Object.entries(value)) {
        if (own !== null && own !== undefined)
          visitOne(field, value, locale, own, `${path}.${locale}`, wanted, visit, options);
      }
    } else {
      visitOne(field, doc, field.name, value, path, wanted, visit, options);
    }
  }
}

function visitOne(
  field: SanitizedField,
  holder: Doc,
  key: string,
  value: unknown,
  path: string,
  wanted: (field: SanitizedField) => boolean,
  visit: (location: ValueLocation) => void,
  options: WalkOptions,
): void {
  if (wanted(field)) visit({ field, holder, key, value, path });
  // Values inside a localized container are plain: only the container's own value is keyed by locale.
  const inner = { keyedByLocale: options.keyedByLocale && !field.localized };
  for (const nested of kindOf(field).nested(field, value))
    visitValues(nested.fields, nested.value, wanted, visit, inner, nested.at ? `${path}.${nested.at}` : path);
}

/** A polymorphic value `{ relationTo, value }` is the field's own object, not a record keyed by locale. */
const isOwnObject = (field: SanitizedField, value: Doc) => isPolymorphic(field) && 'relationTo' in value;

/** Relationship and upload fields: the values population replaces with documents. */
export { isRelationField };

/**
 * One id that names a document: `holder[key]` holds it, in the collection `slug`. `field` is the field
 * whose value holds it (for rich text, the rich text field) and `siblingData` the object that field sits in.
 * `path` says where it is (`layout.2.cover`), or is empty when the walk was asked for no paths.
 */
export type RelationSlot = {
  slug: string;
  holder: Record<string | number, unknown>;
  key: string | number;
  id: number;
  path: string;
  field: SanitizedField;
  siblingData: Doc;
};

export type RelationWalkOptions = WalkOptions & {
  /** False when the caller reads no slot's `path` (population): then no path string is built. */
  paths?: boolean;
};

/**
 * Where a walk tells what it finds: a slot object per reference, or (population, which stores no path,
 * field or sibling data) the four parts alone, with no object made per reference.
 */
type Sink = { slot: (slot: RelationSlot) => void; id: null } | { slot: null; id: SlotVisit };

/**
 * Every document id a document points at: relationship and upload fields (one or many), and inside rich
 * text the upload and relationship nodes, internal links' `doc`, and the relationship fields of embedded
 * blocks. Population and the write-time existence check both read them from here. A big document (a page
 * of many blocks) is walked once per read, so the walk goes only down fields that can hold an id (worked
 * out once per field list), builds each slot it reports directly, and builds paths only when asked.
 */
export function visitRelations(
  fields: SanitizedField[],
  doc: Doc,
  visit: (slot: RelationSlot) => void,
  options: RelationWalkOptions,
  prefix = '',
): void {
  relationsOf(
    fieldsHoldingIds(fields),
    doc,
    { slot: visit, id: null },
    options.keyedByLocale,
    options.paths === false ? null : prefix,
  );
}

/**
 * The ids `visitRelations` finds, each told as its collection, its id and where it sits (`holder[key]`):
 * population's walk over a big document, which makes no object per reference.
 */
export function visitRelationIds(fields: SanitizedField[], doc: Doc, visit: SlotVisit, keyedByLocale: boolean): void {
  relationsOf(fieldsHoldingIds(fields), doc, { slot: null, id: visit }, keyedByLocale, null);
}

/** `prefix`: the path of `doc` in the document, or null when no paths are built. */
function relationsOf(steps: IdStep[], doc: Doc, visit: Sink, keyedByLocale: boolean, prefix: string | null): void {
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s]!;
    const { field } = step;
    const value = doc[field.name];
    if (value === null || value === undefined) continue;
    const path = prefix === null ? null : prefix ? `${prefix}.${field.name}` : field.name;
    if (field.localized && keyedByLocale && isObject(value) && !isOwnObject(field, value)) {
      for (const [locale, own] of Object.entries(value)) {
        if (own !== null && own !== undefined)
          relationsIn(step, value, locale, own, path === null ? null : `${path}.${locale}`, visit, keyedByLocale);
      }
    } else {
      relationsIn(step, doc, field.name, value, path, visit, keyedByLocale);
    }
  }
}

/** The ids in one value of a field (one locale's, when localized): `holder[key]` is `value`. */
function relationsIn(
  step: IdStep,
  holder: Doc,
  key: string,
  value: unknown,
  path: string | null,
  visit: Sink,
  keyedByLocale: boolean,
): void {
  const { field } = step;
  if (step.holds === 'richText') {
    if (isRichTextValue(value)) richTextRelations(field, value, path, holder, visit);
    return;
  }
  if (step.holds === 'ids') {
    if (visit.id) eachRelationSlot(field, holder, key, visit.id);
    else idsIn(field, holder, key, value, path, visit.slot);
    return;
  }
  // Values inside a localized container are plain: only the container's own value is keyed by locale.
  const inner = keyedByLocale && !field.localized;
  if (step.blocks && Array.isArray(value)) {
    // The rows of a blocks field, each walked with its own block's fields (fields/kinds/blocks.ts), those
    // of blocks that hold no id skipped.
    for (let i = 0; i < value.length; i++) {
      const row = value[i];
      const steps = isObject(row) && typeof row.blockType === 'string' ? step.blocks.get(row.blockType) : undefined;
      if (steps) relationsOf(steps, row, visit, inner, path === null ? null : `${path}.${i}`);
    }
    return;
  }
  for (const nested of kindOf(field).nested(field, value))
    relationsOf(
      fieldsHoldingIds(nested.fields),
      nested.value,
      visit,
      inner,
      path === null || !nested.at ? path : `${path}.${nested.at}`,
    );
}

/** One slot per id, or per `{ relationTo, value }` item of a polymorphic value (relationship-values.ts). */
function idsIn(
  field: SanitizedField,
  holder: Doc,
  key: string,
  value: unknown,
  path: string | null,
  visit: (slot: RelationSlot) => void,
): void {
  // A list's slots are numbered in its path by the ids found.
  const many = Array.isArray(value);
  let found = 0;
  eachRelationSlot(field, holder, key, (slug, id, at, k) =>
    visit({
      slug,
      holder: at as Record<string | number, unknown>,
      key: k,
      id,
      path: path === null ? '' : many ? `${path}.${found++}` : path,
      field,
      siblingData: holder,
    }),
  );
}

/**
 * A field that holds ids, or may hold some further down, and how: its own ids, rich text nodes, or nested
 * fields; for a blocks field, the steps of each block that holds any, by its slug.
 */
type IdStep = { field: SanitizedField; holds: 'ids' | 'richText' | 'nested'; blocks?: Map<string, IdStep[]> };

const holdingIds = new WeakMap<SanitizedField[], IdStep[]>();
/** The fields of a list that hold an id or may hold one further down (answered once per field list). */
function fieldsHoldingIds(fields: SanitizedField[]): IdStep[] {
  let answer = holdingIds.get(fields);
  if (!answer) {
    answer = [];
    for (const field of fields) {
      if (isRelationField(field)) answer.push({ field, holds: 'ids' });
      else if (field.type === 'richText') answer.push({ field, holds: 'richText' });
      else if (field.type === 'blocks' && field.blocks) {
        const blocks = new Map<string, IdStep[]>();
        for (const block of field.blocks) {
          const steps = fieldsHoldingIds(block.fields);
          if (steps.length > 0) blocks.set(block.slug, steps);
        }
        if (blocks.size > 0) answer.push({ field, holds: 'nested', blocks });
      } else if (
        (field.fields !== undefined && fieldsHoldingIds(field.fields).length > 0) ||
        field.blocks?.some((b) => fieldsHoldingIds(b.fields).length > 0)
      )
        answer.push({ field, holds: 'nested' });
    }
    holdingIds.set(fields, answer);
  }
  return answer;
}

function richTextRelations(
  field: SanitizedField,
  value: RichTextValue,
  path: string | null,
  siblingData: Doc,
  visit: Sink,
): void {
  visitNodes(value, (node, at) => {
    const nodePath = path === null ? null : `${path}.${at}`;
    if (
      (node.type === 'upload' || node.type === 'relationship') &&
      typeof node.value === 'number' &&
      typeof node.relationTo === 'string'
    ) {
      tellNodeValue(visit, node, node.relationTo, node.value, nodePath, field, siblingData);
    }
    const fields = node.fields;
    if (
      (node.type === 'link' || node.type === 'autolink') &&
      isObject(fields) &&
      fields.linkType === 'internal' &&
      isObject(fields.doc)
    ) {
      const target = fields.doc;
      if (typeof target.value === 'number' && typeof target.relationTo === 'string')
        tellNodeValue(
          visit,
          target,
          target.relationTo,
          target.value,
          nodePath === null ? null : `${nodePath}.fields.doc`,
          field,
          siblingData,
        );
    }
    if (
      (node.type === 'block' || node.type === 'inlineBlock') &&
      isObject(fields) &&
      typeof fields.blockType === 'string'
    ) {
      const block = field.richTextBlocksBySlug?.get(fields.blockType);
      if (block)
        relationsOf(
          fieldsHoldingIds(block.fields),
          fields,
          visit,
          false,
          nodePath === null ? null : `${nodePath}.fields`,
        );
    }
  });
}

/** A reference in rich text (`holder.value`, in `slug`), told as the walk's caller asks. */
function tellNodeValue(
  visit: Sink,
  holder: Doc,
  slug: string,
  id: number,
  path: string | null,
  field: SanitizedField,
  siblingData: Doc,
): void {
  if (visit.id) visit.id(slug, id, holder, 'value');
  else visit.slot({ slug, holder, key: 'value', id, path: path ?? '', field, siblingData });
}
