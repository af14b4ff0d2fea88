/**
 * The audit log seen as a read-only collection, so `where` and `sort` compile through the same query code
 * as any list (every operator, `and`/`or`, 400s naming an unknown field). Not part of the config: nobody
 * writes to it through the operations.
 */
import type { SanitizedCollection, SanitizedField } from '../config/types.ts';
import { AUDIT_TABLE } from './write-entry.ts';

const field = (name: string, type: SanitizedField['type']): SanitizedField =>
  ({ name, type, path: name, localized: false }) as SanitizedField;

const fields: SanitizedField[] = [
  field('at', 'date'),
  field('action', 'text'),
  field('collection', 'text'),
  field('global', 'text'),
  field('document', 'number'),
  field('user', 'number'),
  field('apiKey', 'number'),
  field('via', 'text'),
  field('ip', 'text'),
  field('changes', 'json'),
];

export const auditEntity = {
  slug: 'audit-log',
  kind: 'collection',
  table: AUDIT_TABLE,
  fields,
  fieldsByName: new Map(fields.map((f) => [f.name, f])),
  drafts: false,
} as unknown as SanitizedCollection;
