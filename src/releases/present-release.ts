/**
 * The release record as readers get it (docs/releases.md): times as ISO strings, `errors` as a list,
 * and each item with its document's title (from the pinned version) and whether the document has a
 * newer version than the pinned one.
 */
import type { SanitizedConfig } from '../config/types.ts';
import type { ItemWithVersions, ReleaseRow } from './store.ts';

type Doc = Record<string, unknown>;

const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const isoOrNull = (ms: unknown) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());

export function presentRelease(row: ReleaseRow, items: Doc[]): Doc {
  return {
    id: Number(row.id),
    title: row.title,
    description: row.description ?? null,
    status: row.status,
    publishAt: isoOrNull(row.publishAt),
    publishedAt: row.publishedAt ?? null,
    publishedBy: numberOrNull(row.publishedBy),
    errors: row.errors ? JSON.parse(row.errors) : null,
    revertOf: numberOrNull(row.revertOf),
    items,
    createdBy: numberOrNull(row.createdBy),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function presentItem(config: SanitizedConfig, item: ItemWithVersions): Doc {
  const subject =
    item.kind === 'global' ? { global: item.slug } : { collection: item.slug, document: Number(item.parent) };
  const version = numberOrNull(item.version);
  const newest = numberOrNull(item.newestVersion);
  return {
    id: Number(item.id),
    ...subject,
    action: item.action,
    version,
    title: titleOf(config, item),
    changedSinceAdded: version !== null && newest !== null && newest > version,
  };
}

/** The pinned version's title field (the default locale's value when localized), else the document's id or slug. */
function titleOf(config: SanitizedConfig, item: ItemWithVersions): string {
  const fallback = item.kind === 'global' ? item.slug : String(item.parent);
  const entity = item.kind === 'global' ? config.globalsBySlug.get(item.slug) : config.collectionsBySlug.get(item.slug);
  const field = (entity?.admin as { useAsTitle?: string } | undefined)?.useAsTitle ?? defaultTitleField(entity);
  if (!field || !item.pinned) return fallback;
  let value = (JSON.parse(item.pinned) as Doc)[field];
  if (value && typeof value === 'object' && config.localization)
    value = (value as Doc)[config.localization.defaultLocale];
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : fallback;
}

/** Without `useAsTitle`, a top-level text field named `title` serves. */
function defaultTitleField(entity: { fields: { name: string; type: string }[] } | undefined): string | undefined {
  return entity?.fields.find((f) => f.name === 'title' && f.type === 'text')?.name;
}
