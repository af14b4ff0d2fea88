/**
 * Turns stored documents into what a reader gets: read hooks, one locale (or all), hidden and
 * access-denied fields removed, relationships populated to `depth` (src/operations/steps/populate.ts: one
 * query per related collection per level, never one per document).
 */
import { isUploadCollection } from '../../config/upload-collections.ts';
import type { Entity, SanitizedField } from '../../config/types.ts';
import { localizeForRead } from '../../fields/localize.ts';
import { blockOfRow } from '../../fields/kinds/block-rows.ts';
import { fieldAllowed } from '../../access/check-access.ts';
import { runHooks } from './hooks.ts';
import type { OperationContext } from '../../operation-context.ts';
import { populateRelationships, type PresentSteps } from './populate.ts';
import { decorateMedia } from '../../uploads/media-urls.ts';
import { applySelection, type ReadShape } from '../../query/select.ts';
import { convertRichTextValues } from '../../fields/convert-rich-text.ts';
import { copyWithBlocks } from '../../richtext/block-nodes.ts';
import type { JoinRequest } from '../../query/join-options.ts';
import { joinFieldsOf, readJoins } from './joins.ts';
import { hasFieldHooks, runFieldHooks } from './field-hooks.ts';

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `shape`: the read's `select` and `populate`, already checked (src/operations/steps/read-shape.ts). */
/**
 * `shape`: the read's `select` and `populate`, already checked (src/operations/steps/read-shape.ts). `joins`: which
 * join fields to read and how (src/query/join-options.ts); documents populated inside others get none.
 */
export async function presentDocs(
  ctx: OperationContext,
  entity: Entity,
  stored: Doc[],
  depth: number,
  shape?: ReadShape,
  joins: JoinRequest = {},
): Promise<Doc[]> {
  const out = await prepareDocs(ctx, entity, stored, shape);
  if (depth > 0) await populateRelationships(ctx, entity, out, depth, shape?.populate, STEPS);
  await readJoins(ctx, entity, out, depth, joins, (c, e, docs, d) => presentDocs(c, e, docs, d, undefined, false));
  if (shape?.select) dropUnselected(joinFieldsOf(entity), out, shape.select);
  if (finishes(entity)) for (let i = 0; i < out.length; i++) out[i] = await finishDoc(ctx, entity, out[i]);
  // Virtual fields get their values from afterRead hooks, after the selection: a selection leaves them out too.
  if (shape?.select)
    dropUnselected(
      entity.fields.filter((f) => f.virtual),
      out,
      shape.select,
    );
  if (shape?.richText) {
    const options = { config: ctx.cms.config, keyedByLocale: !ctx.locale || ctx.locale === 'all' };
    for (const doc of out) convertRichTextValues(doc, entity.fields, shape.richText, options);
  }
  return out;
}

/** Everything before population: beforeRead, one locale, hidden and denied fields out, media URLs, selection. */
async function prepareDocs(ctx: OperationContext, entity: Entity, stored: Doc[], shape?: ReadShape): Promise<Doc[]> {
  const out: Doc[] = [];
  // Most collections have no hidden fields and no field rules: then there is nothing to strip.
  const strip = needsStrip(ctx, entity.fields);
  for (const doc of stored) {
    let current = entity.hooks.beforeRead.length
      ? await runHooks(ctx, entity, 'beforeRead', 'doc', { doc, operation: 'read' })
      : doc;
    current = ctx.locale
      ? localizeForRead(entity.fields, current, { locale: ctx.locale, fallbackLocale: ctx.fallbackLocale })
      : current;
    if (strip) current = await stripFields(ctx, entity.fields, current, current);
    if (isUploadCollection(entity)) current = decorateMedia(ctx.cms, current, entity.slug);
    // Payload's clients read the status as `_status` (docs/payload-compatibility.md): every document carries both.
    if (entity.drafts && 'status' in current) current = { ...current, _status: current.status };
    // timestamps: false — still kept for ordering, never shown.
    if (entity.kind === 'collection' && !entity.timestamps) current = withoutTimestamps(current);
    // Selected before population, so relationships left out are not fetched.
    if (shape?.select) current = applySelection(current, shape.select);
    out.push(current);
  }
  return out;
}

/** Whether `finishDoc` has anything to run for documents of `entity` (else it answers them as they are). */
const finishes = (entity: Entity) => entity.hooks.afterRead.length > 0 || hasFieldHooks(entity.fields);

/** After population: field afterRead hooks, then the collection's. */
async function finishDoc(ctx: OperationContext, entity: Entity, doc: Doc): Promise<Doc> {
  const hooked = hasFieldHooks(entity.fields)
    ? await runFieldHooks(ctx, entity.fields, 'afterRead', doc, { originalDoc: null, operation: 'read' })
    : doc;
  return entity.hooks.afterRead.length
    ? runHooks(ctx, entity, 'afterRead', 'doc', { doc: hooked, operation: 'read' })
    : hooked;
}

const STEPS: PresentSteps = { prepare: prepareDocs, finish: finishDoc, finishes };

export async function presentDoc(
  ctx: OperationContext,
  entity: Entity,
  stored: Doc,
  depth: number,
  shape?: ReadShape,
  joins?: JoinRequest,
): Promise<Doc> {
  return (await presentDocs(ctx, entity, [stored], depth, shape, joins))[0];
}

function withoutTimestamps(doc: Doc): Doc {
  const { createdAt: _created, updatedAt: _updated, ...rest } = doc;
  return rest;
}

function dropUnselected(fields: SanitizedField[], docs: Doc[], select: NonNullable<ReadShape['select']>): void {
  for (const field of fields) {
    if (field.name in applySelection({ [field.name]: null }, select)) continue;
    for (const doc of docs) delete doc[field.name];
  }
}

/** Hidden fields and fields whose read access says no are left out (at every level). */
async function stripFields(ctx: OperationContext, fields: SanitizedField[], doc: Doc, root: Doc): Promise<Doc> {
  let out = doc;
  for (const field of fields) {
    if (!(field.name in doc)) continue;
    const hidden = field.hidden && !ctx.showHiddenFields;
    if (hidden || !(await fieldAllowed(ctx, field.access?.read, { id: root.id as number, doc: root }))) {
      if (out === doc) out = { ...doc };
      delete out[field.name];
      continue;
    }
    if (!containerNeedsStrip(ctx, field)) continue;
    if (out === doc) out = { ...doc };
    // Read in every locale, a localized container is keyed by locale: strip each locale's value.
    const keyed = field.localized && (!ctx.locale || ctx.locale === 'all') && isObject(doc[field.name]);
    out[field.name] = keyed
      ? Object.fromEntries(
          await Promise.all(
            Object.entries(doc[field.name] as Doc).map(async ([locale, value]) => [
              locale,
              await stripContainer(ctx, field, value, root),
            ]),
          ),
        )
      : await stripContainer(ctx, field, doc[field.name], root);
  }
  return out;
}

function containerNeedsStrip(ctx: OperationContext, field: SanitizedField): boolean {
  return Boolean((field.fields && needsStrip(ctx, field.fields)) || blocksNeedStrip(ctx, field));
}

/** One value of a group, array, blocks or rich text field (one locale's) with the fields inside stripped. */
async function stripContainer(
  ctx: OperationContext,
  field: SanitizedField,
  value: unknown,
  root: Doc,
): Promise<unknown> {
  if (field.type === 'group' && isObject(value)) return stripFields(ctx, field.fields!, value, root);
  if (field.type === 'array' && Array.isArray(value)) {
    return Promise.all(value.map((row) => (isObject(row) ? stripFields(ctx, field.fields!, row, root) : row)));
  }
  if (field.blocks && Array.isArray(value)) {
    return Promise.all(
      value.map((row) => {
        const block = blockOfRow(field, row);
        return block && isObject(row) ? stripFields(ctx, block.fields, row, root) : row;
      }),
    );
  }
  if (field.richTextBlocks) {
    const copy = copyWithBlocks(field, value);
    if (!copy) return value;
    for (const { node, block } of copy.blocks) node.fields = await stripFields(ctx, block.fields, node.fields, root);
    return copy.value;
  }
  return value;
}

function needsStrip(ctx: OperationContext, fields: SanitizedField[]): boolean {
  return fields.some(
    (f) =>
      (f.hidden && !ctx.showHiddenFields) ||
      (f.access?.read && !ctx.overrideAccess) ||
      (f.fields && needsStrip(ctx, f.fields)) ||
      blocksNeedStrip(ctx, f),
  );
}

function blocksNeedStrip(ctx: OperationContext, field: SanitizedField): boolean {
  // Asked for every field of every document presented: no array is built for the common field without blocks.
  if (field.blocks?.some((block) => needsStrip(ctx, block.fields))) return true;
  return field.richTextBlocks?.some((block) => needsStrip(ctx, block.fields)) ?? false;
}
