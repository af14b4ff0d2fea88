/** Turning config names and stored values into text for people. */
import type { CollectionConfig, Doc, Field, GlobalConfig } from './api.ts';
import { formatNumber, intlLocale, localizedLabel, t } from './i18n/i18n.ts';

/** A label as `{label}` and, for languages that lower-case nouns mid-sentence, `{labelLower}`. */
export const labelParams = (label: string) => ({ label, labelLower: label.toLowerCase() });

export const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

const ACRONYMS = new Set(['api', 'id', 'url', 'seo', 'html', 'css', 'json', 'ip', 'sku', 'cta']);

/** `publishedAt` → "Published at", `api-keys` → "API keys", `seo` → "SEO". */
export function humanize(s: string): string {
  const words = s
    .replace(/[-_.]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase()
    .split(/\s+/);
  const t = words.map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w)).join(' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** The built-in collections are named in the reader's language. */
function builtInLabel(c: CollectionConfig, plural: boolean): string | undefined {
  switch (c.builtIn) {
    case 'users':
      return plural ? t('common.users') : t('common.user');
    case 'media':
      return t('common.media');
    case 'api-keys':
      return plural ? t('common.apiKeys') : t('common.apiKey');
    case 'folders':
      return plural ? t('common.folders') : t('common.folder');
    default:
      return undefined;
  }
}

export function pluralLabel(c: CollectionConfig): string {
  return builtInLabel(c, true) ?? localizedLabel(c.labels?.plural) ?? humanize(c.slug);
}

export function singularLabel(c: CollectionConfig): string {
  const singular = builtInLabel(c, false) ?? localizedLabel(c.labels?.singular);
  if (singular) return singular;
  const p = humanize(c.slug);
  if (/ies$/.test(p)) return p.replace(/ies$/, 'y');
  if (/(ss|us)$/.test(p) || !/s$/.test(p)) return p;
  return p.replace(/s$/, '');
}

export function globalLabel(g: GlobalConfig): string {
  return localizedLabel(g.label) ?? humanize(g.slug);
}

/** A select's or radio's options with their labels in the reader's language. */
export const fieldOptions = (f: Pick<Field, 'options'>) =>
  (f.options ?? []).map((o) => ({ value: o.value, label: localizedLabel(o.label) ?? o.value }));

export function fieldLabel(f: Field): string {
  return localizedLabel(f.label) ?? humanize(f.name);
}

export function formatDate(v: unknown): string {
  return dateText(v, 'short');
}

/** To the second, with the time zone: where "which save was it" matters (versions). */
export function exactTime(v: unknown): string {
  return dateText(v, 'long');
}

/** One formatter per language and style: making one costs far more than using it, and forms render often. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function dateText(v: unknown, timeStyle: 'short' | 'long'): string {
  if (typeof v !== 'string' || !v) return '';
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return v;
  const key = `${intlLocale()} ${timeStyle}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeStyle })));
  return f.format(d);
}

export function formatBytes(n: unknown): string {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '';
  // Decimal units, like the config's `maxFileSize: 10_000_000` (shown as 10 MB).
  if (n < 1000) return `${formatNumber(n)} B`;
  if (n < 1_000_000) return `${formatNumber(n / 1000, { maximumFractionDigits: n < 10_000 ? 1 : 0 })} kB`;
  return `${formatNumber(n / 1_000_000, { maximumFractionDigits: n < 10_000_000 ? 1 : 0 })} MB`;
}

/** A document's title column: its `useAsTitle` value, else `#id`. */
/** A version's author as people read it: name, else email, else "User #id"; "System" for jobs and scripts. */
export function authorName(
  author: { id: number; email?: string | null; name?: string | null } | number | null | undefined,
): string {
  if (author === null || author === undefined) return t('common.system');
  if (typeof author === 'number') return t('common.userNumber', { id: author });
  return author.name || author.email || t('common.userNumber', { id: author.id });
}

export function docTitle(c: CollectionConfig | undefined, d: Doc | null | undefined): string {
  if (!d) return '';
  const key = c?.admin?.useAsTitle;
  const v = key && key !== 'id' ? d[key] : undefined;
  return typeof v === 'string' && v.trim() ? v : typeof v === 'number' ? String(v) : `#${d.id ?? '?'}`;
}

/**
 * How a document is named wherever it is chosen or shown as a whole (pickers, chips, headings, related
 * cells): people by name (email without one), files by the name they were uploaded with, else the title.
 */
export function docLabel(c: CollectionConfig | undefined, d: Doc | null | undefined): string {
  if (!d) return '';
  return c?.builtIn === 'users' || c?.builtIn === 'media' ? relatedLabel(d) : docTitle(c, d);
}

/** A populated related document's name: its original file name, title, name, email or stored name, else `#id`. */
function relatedLabel(d: Doc): string {
  for (const key of ['originalName', 'title', 'name', 'email', 'filename'])
    if (typeof d[key] === 'string' && (d[key] as string).trim()) return d[key] as string;
  return `#${d.id}`;
}

/** One table cell's text for a stored value. */
export function cellText(f: Field | undefined, v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  if (f?.type === 'date') return formatDate(v);
  if (f?.type === 'checkbox') return v ? t('common.yes') : t('common.no');
  if (f?.type === 'select' && f.options) {
    const label = (x: unknown) => localizedLabel(f.options!.find((o) => o.value === x)?.label) ?? String(x);
    return Array.isArray(v) ? v.map(label).join(', ') : label(v);
  }
  if ((f?.type === 'relationship' || f?.type === 'upload') && v !== null) {
    return (Array.isArray(v) ? v : [v])
      .map((x) => (typeof x === 'object' && x ? relatedLabel(x as Doc) : `#${x}`))
      .join(', ');
  }
  if (typeof v === 'string') return v.length > 90 ? `${v.slice(0, 90)}…` : v;
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return String(v);
  return JSON.stringify(v).slice(0, 90);
}

/** 24 hex characters, the shape the server gives array rows (it keeps ids it is sent). */
export function newRowId(): string {
  const b = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}
