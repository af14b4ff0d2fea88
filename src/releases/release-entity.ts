/**
 * Releases seen as a read-only collection, so `where` and `sort` on `GET /releases` compile through the
 * same query code as any list. Not part of the config: only the release operations write these rows.
 */
import type { SanitizedCollection, SanitizedField } from '../config/types.ts';
import { RELEASES_TABLE } from './store.ts';

const field = (name: string, type: SanitizedField['type']): SanitizedField =>
  ({ name, type, path: name, localized: false }) as SanitizedField;

const fields: SanitizedField[] = [
  field('title', 'text'),
  field('description', 'text'),
  field('status', 'text'),
  field('publishedAt', 'date'),
  field('publishedBy', 'number'),
  field('revertOf', 'number'),
  field('createdBy', 'number'),
];

export const releaseEntity = {
  slug: 'releases',
  kind: 'collection',
  table: RELEASES_TABLE,
  fields,
  fieldsByName: new Map(fields.map((f) => [f.name, f])),
  drafts: false,
} as unknown as SanitizedCollection;
