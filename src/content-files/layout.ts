/**
 * The folder `cms export` writes and `cms import` reads (docs/export.md):
 *   cms-export.json          what the export holds (locale shape, drafts)
 *   <collection>/<id>.json   one document each, relationships as ids
 *   globals/<slug>.json      each global that has been saved
 *   media/<stored name>      the files the media documents name (originals and image sizes), beside the
 *                            media documents' own `media/<id>.json` (stored names always hold `-<random>.`,
 *                            so they never look like a document file)
 * Files are written in one canonical form (keys sorted at every level, two-space indent, final newline),
 * so the same content always gives the same bytes and a git diff shows only what changed.
 */
import path from 'node:path';
import type { SanitizedCollection, SanitizedConfig } from '../config/types.ts';

export const MANIFEST_FILE = 'cms-export.json';
export const GLOBALS_DIR = 'globals';
export const MEDIA_DIR = 'media';

export type ExportManifest = { format: 1; locale: string; drafts: boolean };

/**
 * Collections whose documents are content. Accounts are not: users and API keys carry credentials that
 * cannot travel in files (and should not be in git); relationships to users stay as ids.
 */
export function contentCollections(config: SanitizedConfig): SanitizedCollection[] {
  return config.collections.filter((c) => c.builtIn !== 'users' && c.builtIn !== 'api-keys');
}

/** A document's file name: its id. */
export const DOCUMENT_FILE = /^[1-9][0-9]*\.json$/;
export const documentFile = (dir: string, collection: string, id: number | string) =>
  path.join(dir, collection, `${id}.json`);
export const globalFile = (dir: string, slug: string) => path.join(dir, GLOBALS_DIR, `${slug}.json`);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
  return out;
}

export const canonicalJSON = (value: unknown) => `${JSON.stringify(sortKeys(value), null, 2)}\n`;
