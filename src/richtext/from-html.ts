/**
 * HTML in, on the server: htmlparser2 builds the tree (docs/dependencies.md) and from-html-tree.ts reads it.
 * The admin's paste reads the browser's own parse with the same reader.
 */
import { parseDocument } from 'htmlparser2';
import type { HtmlNode } from './html-tree.ts';
import { htmlReader } from './from-html-tree.ts';

export type { ConvertOptions, Lossy, RichTextRefs } from './build-nodes.ts';

const parse = (html: string): HtmlNode[] => parseDocument(html, { decodeEntities: true }).children;

export const { htmlRefs, htmlToLexical, mapsWhole, htmlBlocks } = htmlReader(parse);
