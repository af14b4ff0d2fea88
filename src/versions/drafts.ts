/** Pending drafts over live documents. Until draft saving lands (drafts issue) no document has a pending draft. */
import type { SanitizedCollection } from '../config/types.ts';
import type { CMS } from '../cms.ts';

export function overlayDrafts(_cms: CMS, _collection: SanitizedCollection, docs: Record<string, unknown>[]): Record<string, unknown>[] {
  return docs;
}
