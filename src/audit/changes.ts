/**
 * What a write changed, as `{ <path>: { from, to } }`: groups and localized values by dot path
 * (`seo.title`, `title.de`), anything else as its whole value. Hidden fields never appear, at any depth
 * (inside array and block rows, rich text blocks, groups, each locale), and neither do the stored secrets
 * of users and API keys (their hashes are columns outside the config's fields, and a key's visible prefix
 * is part of the key). Both sides are stripped before they are compared, so a change to a hidden value
 * alone records nothing.
 */
import type { Entity, SanitizedField } from '../config/types.ts';
import { API_KEYS_SLUG } from '../config/builtin-collections.ts';
import { withoutHiddenFields } from '../fields/without-hidden.ts';
import type { AuditChanges } from './write-entry.ts';

type Doc = Record<string, unknown> | null | undefined;

const NEVER_RECORDED = new Set(['password', 'passwordHash', 'keyHash', 'key', 'token', 'prefix']);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return (a ?? null) === (b ?? null);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

export function changesBetween(entity: Entity, before: Doc, after: Doc): AuditChanges {
  const changes: AuditChanges = {};
  const secrets = entity.kind === 'collection' && entity.builtIn === API_KEYS_SLUG;
  const fields = secrets ? entity.fields.filter((f) => f.name !== 'prefix') : entity.fields;
  const visible = (doc: Doc) => (doc ? withoutHiddenFields(entity.fields, doc) : doc);
  walk(fields, visible(before), visible(after), '', changes);
  if (entity.drafts && !same(before?.status, after?.status))
    changes.status = { from: before?.status ?? null, to: after?.status ?? null };
  return changes;
}

function walk(fields: SanitizedField[], before: Doc, after: Doc, prefix: string, out: AuditChanges): void {
  for (const field of fields) {
    if (field.hidden || NEVER_RECORDED.has(field.name)) continue;
    const from = before?.[field.name];
    const to = after?.[field.name];
    if (same(from, to)) continue;
    const path = prefix + field.name;
    if (field.localized && (isObject(from) || isObject(to))) {
      const f = isObject(from) ? from : {};
      const t = isObject(to) ? to : {};
      for (const locale of new Set([...Object.keys(f), ...Object.keys(t)])) {
        if (!same(f[locale], t[locale])) out[`${path}.${locale}`] = { from: f[locale] ?? null, to: t[locale] ?? null };
      }
    } else if (field.type === 'group' && field.fields && (isObject(from) || isObject(to))) {
      walk(field.fields, isObject(from) ? from : null, isObject(to) ? to : null, `${path}.`, out);
    } else {
      out[path] = { from: from ?? null, to: to ?? null };
    }
  }
}
