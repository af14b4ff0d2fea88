/**
 * Labels in the config may be one string or one per language, as in Payload: `label: { en: 'Title',
 * de: 'Titel' }` (docs/admin.md, "Languages"). The admin picks the reader's language; everything else
 * that names things (GraphQL types, generated types, OpenAPI, MCP) reads the English text, else the first.
 */
import type { LabelText } from './types.ts';

export function labelText(label: LabelText | false | undefined | null, language = 'en'): string | undefined {
  if (label === undefined || label === null || label === false) return undefined;
  if (typeof label === 'string') return label;
  return label[language] ?? label.en ?? Object.values(label)[0];
}

/** A label as written, or an error message: a string, or an object of non-empty strings keyed by language. */
export function labelProblem(label: unknown): string | null {
  if (label === undefined || typeof label === 'string') return null;
  if (!label || typeof label !== 'object' || Array.isArray(label))
    return 'must be a string or an object of strings by language, like { en: "Title", de: "Titel" }';
  const entries = Object.entries(label);
  if (entries.length === 0) return 'needs at least one language';
  for (const [code, text] of entries)
    if (typeof text !== 'string' || !text) return `the "${code}" text must be a non-empty string`;
  return null;
}
