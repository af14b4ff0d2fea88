/**
 * Turns stored documents into what a reader gets: read hooks, one locale (or all), hidden and
 * access-denied fields removed, relationships populated to `depth` (one query per related collection
 * per level, never one per document).
 */
import type { Entity, SanitizedCollection, SanitizedField } from '../config/types.ts';
import { localizeForRead } from '../fields/localize.ts';
import { rowToDoc } from '../fields/row.ts';
import { selectRowsByIds } from '../db/documents.ts';
import { compileWhere, TRUSTED } from '../query/where.ts';
import { checkAccess, fieldAllowed } from '../access/check-access.ts';
import { runHooks } from './hooks.ts';
import { localeOf, type OperationContext } from './context.ts';
import { decorateMedia } from '../uploads/media-urls.ts';
import { applySelection, type ReadShape } from '../query/select.ts';

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `shape`: the read's `select` and `populate`, already checked (src/operations/read-shape.ts). */
export async function presentDocs(ctx: OperationContext, entity: Entity, stored: Doc[], depth: number, shape?: ReadShape): Promise<Doc[]> {
  const out: Doc[] = [];
  // Most collections have no hidden fields and no field rules: then there is nothing to strip.
  const strip = needsStrip(ctx, entity.fields);
  for (const doc of stored) {
    let current = entity.hooks.beforeRead.length ? await runHooks(ctx, entity, 'beforeRead', 'doc', { doc, operation: 'read' }) : doc;
    current = ctx.locale ? localizeForRead(entity.fields, current, { locale: ctx.locale, fallbackLocale: ctx.fallbackLocale }) : current;
    if (strip) current = await stripFields(ctx, entity.fields, current, current);
    if (entity.kind === 'collection' && entity.builtIn === 'media') current = decorateMedia(ctx.cms, current);
    // Payload's clients read the status as `_status` (CONTRACT §7): every document carries both.
    if (entity.drafts && 'status' in current) current = { ...current, _status: current.status };
    // Selected before population, so relationships left out are not fetched.
    if (shape?.select) current = applySelection(current, shape.select);
    out.push(current);
  }
  if (depth > 0) await populate(ctx, entity.fields, out, depth, shape?.populate);
  if (entity.hooks.afterRead.length) {
    for (let i = 0; i < out.length; i++) out[i] = await runHooks(ctx, entity, 'afterRead', 'doc', { doc: out[i], operation: 'read' });
  }
  return out;
}

export async function presentDoc(ctx: OperationContext, entity: Entity, stored: Doc, depth: number, shape?: ReadShape): Promise<Doc> {
  return (await presentDocs(ctx, entity, [stored], depth, shape))[0];
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
    if (field.fields && needsStrip(ctx, field.fields)) {
      const value = doc[field.name];
      if (out === doc) out = { ...doc };
      if (field.type === 'group' && isObject(value)) out[field.name] = await stripFields(ctx, field.fields, value, root);
      if (field.type === 'array' && Array.isArray(value)) {
        out[field.name] = await Promise.all(value.map((row) => (isObject(row) ? stripFields(ctx, field.fields!, row, root) : row)));
      }
    }
  }
  return out;
}

function needsStrip(ctx: OperationContext, fields: SanitizedField[]): boolean {
  return fields.some((f) => (f.hidden && !ctx.showHiddenFields) || (f.access?.read && !ctx.overrideAccess) || (f.fields && needsStrip(ctx, f.fields)));
}

type Slot = { holder: Doc | unknown[]; key: string | number; id: number };

/** Finds every relationship value in the documents (also inside groups and arrays). */
function collectSlots(fields: SanitizedField[], doc: Doc, slots: Map<string, Slot[]>): void {
  for (const field of fields) {
    const value = doc[field.name];
    if (value === null || value === undefined) continue;
    if (field.type === 'relationship' || field.type === 'upload') {
      const list = slots.get(field.relationTo!) ?? [];
      slots.set(field.relationTo!, list);
      if (Array.isArray(value)) value.forEach((id, i) => typeof id === 'number' && list.push({ holder: value, key: i, id }));
      else if (typeof value === 'number') list.push({ holder: doc, key: field.name, id: value });
      else if (isObject(value) && field.localized) {
        // locale=all: each locale holds its own id.
        for (const [locale, id] of Object.entries(value)) if (typeof id === 'number') list.push({ holder: value, key: locale, id });
      }
    } else if (field.type === 'group' && isObject(value)) {
      collectSlots(field.fields!, value, slots);
    } else if (field.type === 'array' && Array.isArray(value)) {
      for (const row of value) if (isObject(row)) collectSlots(field.fields!, row, slots);
    }
  }
}

async function populate(ctx: OperationContext, fields: SanitizedField[], docs: Doc[], depth: number, narrow?: ReadShape['populate']): Promise<void> {
  const slots = new Map<string, Slot[]>();
  for (const doc of docs) collectSlots(fields, doc, slots);
  for (const [slug, list] of slots) {
    if (list.length === 0) continue;
    const related = ctx.cms.config.collectionsBySlug.get(slug) as SanitizedCollection;
    let accessWhere = null;
    try {
      accessWhere = await checkAccess(ctx, related, 'read');
    } catch {
      for (const slot of list) (slot.holder as Record<string | number, unknown>)[slot.key] = null;
      continue;
    }
    const ids = [...new Set(list.map((s) => s.id))];
    const rows = await selectRowsByIds(ctx.cms.store, related, ids, compileWhere(ctx.cms.store.dialect, related, accessWhere, localeOf(ctx), TRUSTED));
    const shape = narrow ? { select: narrow[slug], populate: narrow } : undefined;
    const presented = await presentDocs(ctx, related, rows.map((r) => rowToDoc(related, r)), depth - 1, shape);
    const byId = new Map(presented.map((d) => [d.id as number, d]));
    for (const slot of list) (slot.holder as Record<string | number, unknown>)[slot.key] = byId.get(slot.id) ?? null;
  }
}
