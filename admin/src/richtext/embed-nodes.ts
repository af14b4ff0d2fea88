/**
 * Nodes that are not text: uploads, relationships and the field's blocks (block and inline block). Each
 * keeps its JSON as the API stores it. Uploads and relationships draw a small labelled box; blocks get an
 * empty element that the editor fills with the block's fields form (block-embeds.tsx).
 */
import { DecoratorNode, type LexicalNode, type NodeKey } from 'lexical';
import { docs, type Doc } from '../api.ts';
import { thumbnailURL } from '../upload.ts';
import { t } from '../i18n/i18n.ts';

export type EmbedData = Record<string, unknown> & { type: string };
type Data = EmbedData;

function describe(data: Data): string {
  if (data.type === 'upload') return t('rt.imageEmbed', { id: String(idOf(data.value)) });
  if (data.type === 'relationship')
    return t('rt.documentEmbed', { collection: String(data.relationTo), id: String(idOf(data.value)) });
  return '';
}
const isBlock = (type: string) => type === 'block' || type === 'inlineBlock';
const idOf = (value: unknown) => (typeof value === 'object' && value ? (value as { id?: unknown }).id : value);

/**
 * Puts the media document's thumbnail in front of the label (fetched when the value is only an id), and
 * names the image by its alt text, else its file name.
 */
async function showThumbnail(element: HTMLElement, data: Data): Promise<void> {
  const value = data.value;
  const doc =
    typeof value === 'object' && value
      ? (value as Doc)
      : await docs.get(String(data.relationTo ?? 'media'), value as number).catch(() => null);
  if (!doc) return;
  const own = (data.fields as { alt?: unknown } | null)?.alt;
  const name = String((typeof own === 'string' && own) || doc.alt || doc.originalName || doc.filename || '');
  if (name) element.replaceChildren(document.createTextNode(t('rt.imageNamed', { name })));
  const url = thumbnailURL(doc);
  if (!url) return;
  const img = document.createElement('img');
  img.src = url;
  img.alt = name;
  element.prepend(img);
}

function embedClass(type: string, inline: boolean) {
  class Embed extends DecoratorNode<null> {
    __data: Data;
    static override getType() {
      return type;
    }
    static override clone(node: Embed) {
      return new Embed(node.__data, node.__key);
    }
    static override importJSON(json: Data) {
      return new Embed(json);
    }
    constructor(data: Data, key?: NodeKey) {
      super(key);
      this.__data = data;
    }
    override exportJSON() {
      return { ...this.__data, type, version: this.__data.version ?? 1 } as never;
    }
    override createDOM() {
      const element = document.createElement(inline ? 'span' : 'div');
      element.className = isBlock(type)
        ? inline
          ? 'rt-block-embed rt-block-embed-inline'
          : 'rt-block-embed'
        : inline
          ? 'rt-embed rt-embed-inline'
          : 'rt-embed';
      element.contentEditable = 'false';
      if (!isBlock(type)) element.append(document.createTextNode(describe(this.__data)));
      if (type === 'upload') void showThumbnail(element, this.__data);
      return element;
    }
    override updateDOM() {
      return false;
    }
    override isInline() {
      return inline;
    }
    override decorate() {
      return null;
    }
  }
  return Embed;
}

export const UploadEmbedNode = embedClass('upload', false);
export const RelationshipEmbedNode = embedClass('relationship', false);
export const BlockEmbedNode = embedClass('block', false);
export const InlineBlockEmbedNode = embedClass('inlineBlock', true);
export const EMBED_NODES = [UploadEmbedNode, RelationshipEmbedNode, BlockEmbedNode, InlineBlockEmbedNode];

export function $createEmbedNode(data: Data): LexicalNode {
  const klass = {
    upload: UploadEmbedNode,
    relationship: RelationshipEmbedNode,
    block: BlockEmbedNode,
    inlineBlock: InlineBlockEmbedNode,
  }[data.type]!;
  return new klass(data);
}
