/**
 * Pasted HTML (a web page, Word, Google Docs, an email) becomes the nodes `cms import` would make of it: the
 * browser parses it (nothing runs and nothing loads in a parsed document), the importer's own reader
 * (src/richtext/from-html-tree.ts) turns it into the stored rich text, and that is inserted at the caret.
 * So a paste and an import of the same HTML store the same headings, lists, links, formats, code and quotes,
 * and what has no node (tables, embeds, scripts, styles) is kept as text or dropped the same way. Text
 * copied inside the editor itself keeps Lexical's own format (blocks and embeds included), and a paste of
 * plain text alone is Lexical's as well (docs/rich-text.md, "Editor").
 */
import {
  $getSelection,
  COMMAND_PRIORITY_LOW,
  PASTE_COMMAND,
  type LexicalEditor,
  type SerializedLexicalNode,
} from 'lexical';
import {
  $generateNodesFromSerializedNodes,
  $insertDataTransferForPlainText,
  $insertGeneratedNodes,
} from '@lexical/clipboard';
import { htmlReader } from '../../../src/richtext/from-html-tree.ts';
import type { HtmlNode } from '../../../src/richtext/html-tree.ts';
import { toLexical } from './lexical-json.ts';

/** Lexical's own clipboard format: a copy from this editor or another Lexical editor. */
const LEXICAL_MIME = 'application/x-lexical-editor';

/** The browser's parse of `html` as the plain tree the reader walks (without recursion: any depth is safe). */
function parseInBrowser(html: string): HtmlNode[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const top: HtmlNode[] = [];
  const queue: [Node, HtmlNode[]][] = [...doc.childNodes].map((node) => [node, top]);
  for (let i = 0; i < queue.length; i++) {
    const [node, into] = queue[i];
    if (node instanceof Element) {
      const attribs: Record<string, string> = {};
      for (const attribute of node.attributes) attribs[attribute.name] = attribute.value;
      const children: HtmlNode[] = [];
      into.push({ type: 'tag', name: node.localName, attribs, children });
      for (const child of node.childNodes) queue.push([child, children]);
    } else if (node.nodeType === Node.TEXT_NODE || node.nodeType === Node.CDATA_SECTION_NODE) {
      into.push({ type: 'text', data: (node as CharacterData).data });
    } else if (node.nodeType === Node.COMMENT_NODE) {
      into.push({ type: 'comment', data: (node as CharacterData).data });
    }
  }
  return top;
}

const { htmlToLexical } = htmlReader(parseInBrowser);

/** The rich text a paste of `html` stores, as the API holds it (Payload's link shape). */
export function pastedValue(html: string): Record<string, unknown> {
  // Line ends in pasted HTML are spaces, as a browser shows them (not WordPress's classic paragraphs).
  return htmlToLexical(html, { autoParagraphs: false }).value;
}

/** Takes over pastes that carry HTML; answers the function that gives them back to Lexical. */
export function registerHtmlPaste(editor: LexicalEditor): () => void {
  return editor.registerCommand(
    PASTE_COMMAND,
    (event) => {
      const data = 'clipboardData' in event ? event.clipboardData : null;
      const html = data?.getData('text/html');
      if (!data || !html || data.types.includes(LEXICAL_MIME)) return false;
      const value = toLexical(pastedValue(html)) as { root: { children: SerializedLexicalNode[] } };
      event.preventDefault();
      editor.update(
        () => {
          const selection = $getSelection();
          if (!selection) return;
          // HTML that makes nothing (a lone image from the writer's disk, without alt text): its plain text.
          if (!value.root.children.length) $insertDataTransferForPlainText(data, selection);
          else $insertGeneratedNodes(editor, $generateNodesFromSerializedNodes(value.root.children), selection);
        },
        { tag: 'paste' },
      );
      return true;
    },
    COMMAND_PRIORITY_LOW,
  );
}
