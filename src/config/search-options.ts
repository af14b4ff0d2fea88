/**
 * A collection's `search` option (docs/search.md): which text fields its full-text index holds. Paths may
 * reach into groups, arrays and blocks (`seo.title`, `sections.body`); each must end at a text-like field.
 */
import type { SanitizedField } from './types.ts';

type Fail = (key: string, message: string) => never;

export type SearchConfig = { fields: string[] };
/** One indexed field: its dot path, and whether its value is kept per locale (it or a field above it is localized). */
export type SearchField = { path: string; localized: boolean };
export type SanitizedSearch = { fields: SearchField[] };

const SEARCHABLE = new Set(['text', 'textarea', 'markdown', 'email', 'code', 'richText']);

export function sanitizeSearch(
  input: SearchConfig | undefined,
  fields: SanitizedField[],
  key: string,
  fail: Fail,
): SanitizedSearch | null {
  if (input === undefined) return null;
  if (!input || typeof input !== 'object' || !Array.isArray(input.fields) || input.fields.length === 0)
    fail(`${key}.search`, 'must be { fields: [names of text fields] }');
  return {
    fields: input.fields.map((path, i) => {
      if (typeof path !== 'string') fail(`${key}.search.fields[${i}]`, 'must be a field name or dot path');
      let level: SanitizedField[] | undefined = fields;
      let localized = false;
      let found: SanitizedField | undefined;
      for (const name of path.split('.')) {
        found = level?.find((f) => f.name === name);
        if (!found) fail(`${key}.search.fields[${i}]`, `unknown field "${path}"`);
        localized ||= found.localized;
        level = found.fields ?? (found as { blocks?: { fields: SanitizedField[] }[] }).blocks?.flatMap((b) => b.fields);
      }
      if (!SEARCHABLE.has(found!.type))
        fail(
          `${key}.search.fields[${i}]`,
          `"${path}" is a ${found!.type} field; search holds text, textarea, markdown, email, code and rich text fields`,
        );
      return { path, localized };
    }),
  };
}
