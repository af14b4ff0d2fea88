/**
 * `richText=html|markdown|text` on a read: every rich text value of a presented document (at any nesting,
 * and in the documents population put in its place) replaced by a string in that format. Pure: transports
 * (REST, the Local API, GraphQL resolvers) call it on what the read operation answered.
 */
import type { SanitizedConfig, SanitizedField } from '../config/types.ts';
import { convertRichText, type RichTextFormat } from '../richtext/convert-values.ts';
import { isObject, isRichTextValue } from '../richtext/nodes.ts';
import { visitValues } from './walk-values.ts';

type Options = { config?: SanitizedConfig; keyedByLocale?: boolean };

/**
 * Converts in place and answers `doc`. `config` lets it reach into populated relationships (their own
 * rich text is converted too); `keyedByLocale` for `locale=all` reads, where localized values are per-locale records.
 */
export function convertRichTextValues<T extends Record<string, unknown>>(
  doc: T,
  fields: SanitizedField[],
  format: RichTextFormat,
  options: Options = {},
): T {
  convertIn(doc, fields, format, options, new Set());
  return doc;
}

function convertIn(
  doc: Record<string, unknown>,
  fields: SanitizedField[],
  format: RichTextFormat,
  options: Options,
  seen: Set<object>,
): void {
  if (seen.has(doc)) return;
  seen.add(doc);
  const wanted = (f: SanitizedField) =>
    f.type === 'richText' || ((f.type === 'relationship' || f.type === 'upload') && Boolean(options.config));
  visitValues(
    fields,
    doc,
    wanted,
    ({ field, holder, key, value }) => {
      if (field.type === 'richText') {
        if (isRichTextValue(value)) holder[key] = convertRichText(value, format);
        return;
      }
      // Populated documents, also as the `value` of a polymorphic item (its own collection named beside it).
      for (const item of [value].flat()) {
        if (!isObject(item)) continue;
        const polymorphic = Array.isArray(field.relationTo);
        const related = options.config!.collectionsBySlug.get(
          polymorphic ? String(item.relationTo) : (field.relationTo as string),
        );
        const populated = polymorphic ? item.value : item;
        if (related && isObject(populated)) convertIn(populated, related.fields, format, options, seen);
      }
    },
    { keyedByLocale: Boolean(options.keyedByLocale) },
  );
}
