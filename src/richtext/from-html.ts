/**
 * HTML in, on the server: htmlparser2 builds the tree (docs/dependencies.md) and from-html-tree.ts reads it.
 * The admin's paste reads the browser's own parse with the same reader.
 */
import { parseDocument } from 'htmlparser2';
import type { HtmlNode } from './html-tree.ts';
import { htmlReader } from './from-html-tree.ts';

export type { ConvertOptions, Lossy, RichTextRefs } from './build-nodes.ts';

/** The last text parsed and its tree (which the reader only reads): an import lists a post's links and images, then converts it. */
let last: { html: string; nodes: HtmlNode[] } | null = null;

function parse(html: string): HtmlNode[] {
  if (last?.html !== html) last = { html, nodes: parseDocument(html, { decodeEntities: true }).children };
  return last.nodes;
}

export const { htmlRefs, htmlToLexical, mapsWhole, htmlBlocks } = htmlReader(parse);
