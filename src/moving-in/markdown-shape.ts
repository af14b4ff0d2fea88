/**
 * How a folder of Markdown files maps onto one collection: a field per front-matter key, typed from the values the
 * files hold (checkbox, number, date, upload for image file names, select with many values for lists of strings,
 * text, else json), `slug` from the file's path and the body as `content`. `draft: true` makes a draft.
 */
import fs from 'node:fs';
import path from 'node:path';
import { splitFrontMatter } from '../richtext/from-markdown.ts';
import type { EmittedField } from './config-text.ts';
import { fieldNameOf, slugify } from './names.ts';

export type MarkdownFile = { relative: string; data: Record<string, unknown>; body: string; text: string };
export type KeyField = { key: string; field: EmittedField & { name: string; type: string } };

const IMAGE = /\.(png|jpe?g|gif|webp|avif|svg|bmp|tiff?)$/i;
const DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
/** Keys that are not fields: the draft flag, and names the document keeps for itself. */
const RESERVED = new Set(['draft', 'id', 'createdAt', 'updatedAt', 'status', '_status', 'slug', 'content']);

export const isMarkdownFile = (name: string) => /\.mdx?$/i.test(name);

/** Every `.md` / `.mdx` file below the folder (hidden folders and node_modules left out), with symbolic links apart. */
export async function listMarkdownFiles(dir: string): Promise<{ files: string[]; links: string[] }> {
  const files: string[] = [];
  const links: string[] = [];
  const walk = async (relative: string) => {
    const entries = await fs.promises.readdir(path.join(dir, relative), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) {
        if (isMarkdownFile(entry.name)) links.push(child);
      } else if (entry.isDirectory()) await walk(child);
      else if (entry.isFile() && isMarkdownFile(entry.name)) files.push(child);
    }
  };
  await walk('');
  return { files, links };
}

export async function readMarkdownFile(dir: string, relative: string): Promise<MarkdownFile> {
  const text = await Bun.file(path.join(dir, relative)).text();
  const { data, body } = splitFrontMatter(text);
  return { relative, data, body, text };
}

/** `blog/2024/Hello World.md` → `blog/2024/hello-world`; an `index` file takes its folder's path. */
export function slugOfPath(relative: string): string {
  const parts = relative.replace(/\.mdx?$/i, '').split('/');
  if (parts.length > 1 && /^(index|_index|readme)$/i.test(parts[parts.length - 1]!)) parts.pop();
  return parts.map((p) => slugify(p) || 'index').join('/');
}

export const isDraft = (data: Record<string, unknown>) => data.draft === true || data.draft === 'true';

function typeOf(values: unknown[]): EmittedField {
  const all = (test: (v: unknown) => boolean) => values.every(test);
  if (all((v) => typeof v === 'boolean')) return { type: 'checkbox' };
  if (all((v) => typeof v === 'number')) return { type: 'number' };
  if (all((v) => v instanceof Date || (typeof v === 'string' && DATE.test(v) && !Number.isNaN(Date.parse(v)))))
    return { type: 'date' };
  if (all((v) => typeof v === 'string' && IMAGE.test(v) && !/\s/.test(v)))
    return { type: 'upload', relationTo: 'media' };
  if (all((v) => typeof v === 'string'))
    return { type: values.some((v) => String(v).includes('\n')) ? 'textarea' : 'text' };
  if (all((v) => Array.isArray(v) && v.every((s) => typeof s === 'string'))) {
    const options = [...new Set(values.flat() as string[])].sort();
    return { type: 'select', hasMany: true, options };
  }
  return { type: 'json' };
}

/** The fields the files' front matter asks for, in the order keys first appear. */
export function frontMatterFields(files: MarkdownFile[]): KeyField[] {
  const values = new Map<string, unknown[]>();
  for (const file of files)
    for (const [key, value] of Object.entries(file.data)) {
      if (RESERVED.has(key) || value === null || value === undefined) continue;
      values.set(key, [...(values.get(key) ?? []), value]);
    }
  return [...values].map(([key, found]) => ({
    key,
    field: { name: fieldNameOf(key), ...typeOf(found) } as KeyField['field'],
  }));
}

export function collectionOfFolder(dir: string, wanted?: string): string {
  return slugify(wanted || path.basename(path.resolve(dir))) || 'documents';
}
