/**
 * `richText=html|markdown|text` on a read: the formats a rich text value is answered in, and the conversion
 * of one value (fields/convert-rich-text.ts converts every value of a document).
 */
import { badRequest } from '../errors.ts';
import type { RichTextValue } from './nodes.ts';
import { richTextToHTML } from './to-html.ts';
import { richTextToMarkdown } from './to-markdown.ts';
import { richTextToText } from './to-text.ts';

export type RichTextFormat = 'html' | 'markdown' | 'text';
export const RICH_TEXT_FORMATS: readonly RichTextFormat[] = ['html', 'markdown', 'text'];

const CONVERT: Record<RichTextFormat, (value: RichTextValue) => string> = {
  html: richTextToHTML,
  markdown: richTextToMarkdown,
  text: richTextToText,
};

/** One rich text value as a string in that format. */
export const convertRichText = (value: RichTextValue, format: RichTextFormat): string => CONVERT[format](value);

/** The format a read asked for (`richText=` in a query, an option of the Local API), checked; undefined for JSON. */
export function richTextFormatOf(value: unknown): RichTextFormat | undefined {
  if (value === undefined || value === '' || value === 'json') return undefined;
  if (typeof value === 'string' && (RICH_TEXT_FORMATS as readonly string[]).includes(value))
    return value as RichTextFormat;
  throw badRequest('"richText" must be html, markdown or text.', 'richText');
}
