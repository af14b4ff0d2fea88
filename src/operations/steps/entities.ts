/** Looks up a collection or global by slug; unknown ones are a 404. */
import { notFound } from '../../errors.ts';
import type { SanitizedCollection, SanitizedGlobal } from '../../config/types.ts';
import type { CMS } from '../../cms.ts';

export function getCollection(cms: CMS, slug: string): SanitizedCollection {
  const collection = cms.config.collectionsBySlug.get(slug);
  if (!collection) throw notFound(`Collection "${slug}" not found.`);
  return collection;
}

export function getGlobal(cms: CMS, slug: string): SanitizedGlobal {
  const global = cms.config.globalsBySlug.get(slug);
  if (!global) throw notFound(`Global "${slug}" not found.`);
  return global;
}

/** Ids are positive integers; anything else names no document. */
export function parseId(id: unknown): number {
  const n = typeof id === 'number' ? id : /^\d+$/.test(String(id)) ? Number(id) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw notFound('Document not found.');
  return n;
}
