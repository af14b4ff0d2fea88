/**
 * The release record as readers get it (docs/releases.md): times as ISO strings, `errors` as a list,
 * and each item with its document's title (from the pinned version) and whether the document has a
 * newer version than the pinned one.
 */
import type { SanitizedConfig } from '../config/types.ts';
import type { ItemWithVersions, ReleaseRow, TitlePath } from './store.ts';

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

export function presentItem(item: ItemWithVersions): Doc {
  const subject =
    item.kind === 'global' ? { global: item.slug } : { collection: item.slug, document: Number(item.parent) };
  const version = numberOrNull(item.version);
  const newest = numberOrNull(item.newestVersion);
  return {
    id: Number(item.id),
    ...subject,
    action: item.action,
    version,
    title: titleOf(item),
    changedSinceAdded: version !== null && newest !== null && newest > version,
  };
}

/** The pinned version's title (read by itemsWithVersions), else the document's id or the global's slug. */
function titleOf(item: ItemWithVersions): string {
  const fallback = item.kind === 'global' ? item.slug : String(item.parent);
  const value = item.pinnedTitle;
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : fallback;
}

/**
 * Where each drafts entity keeps its title in a stored version: its `admin.useAsTitle` field (or a
 * top-level text field named `title`), in the default locale when the field is localized.
 */
export function titlePaths(config: SanitizedConfig): TitlePath[] {
  const paths: TitlePath[] = [];
  for (const entity of [...config.collections, ...config.globals]) {
    if (!entity.drafts) continue;
    const name = (entity.admin as { useAsTitle?: string } | undefined)?.useAsTitle ?? defaultTitleField(entity);
    const field = name ? entity.fieldsByName.get(name) : undefined;
    if (!name || !field) continue;
    const locale = field.localized && config.localization ? [config.localization.defaultLocale] : [];
    paths.push({ kind: entity.kind, slug: entity.slug, path: [name, ...locale] });
  }
  return paths;
}

/** Without `useAsTitle`, a top-level text field named `title` serves. */
function defaultTitleField(entity: { fields: { name: string; type: string }[] }): string | undefined {
  return entity.fields.find((f) => f.name === 'title' && f.type === 'text')?.name;
}
