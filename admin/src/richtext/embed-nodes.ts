/**
 * Nodes the editor shows but does not edit inside: uploads, relationships and the field's blocks (block
 * and inline block). Each keeps its JSON as the API stores it and draws a small labelled box; blocks are
 * shown read-only here (the admin has no blocks editor to reuse yet).
 */
import { DecoratorNode, type LexicalNode, type NodeKey } from 'lexical'

type Data = Record<string, unknown> & { type: string }

function describe(data: Data): string {
  if (data.type === 'upload') return `Image: media ${String(idOf(data.value))}`
  if (data.type === 'relationship') return `Document: ${String(data.relationTo)} ${String(idOf(data.value))}`
  const fields = (data.fields ?? {}) as Record<string, unknown>
  return `Block: ${String(fields.blockName || fields.blockType)} (read-only here)`
}
const idOf = (value: unknown) => (typeof value === 'object' && value ? (value as { id?: unknown }).id : value)

function embedClass(type: string, inline: boolean) {
  class Embed extends DecoratorNode<null> {
    __data: Data
    static override getType() { return type }
    static override clone(node: Embed) { return new Embed(node.__data, node.__key) }
    static override importJSON(json: Data) { return new Embed(json) }
    constructor(data: Data, key?: NodeKey) {
      super(key)
      this.__data = data
    }
    override exportJSON() { return { ...this.__data, type, version: this.__data.version ?? 1 } as never }
    override createDOM() {
      const element = document.createElement(inline ? 'span' : 'div')
      element.className = inline ? 'rt-embed rt-embed-inline' : 'rt-embed'
      element.contentEditable = 'false'
      const value = this.__data.value as { url?: string; alt?: string } | null
      if (type === 'upload' && value && typeof value === 'object' && typeof value.url === 'string') {
        const img = document.createElement('img')
        img.src = value.url
        img.alt = value.alt ?? ''
        element.append(img)
      }
      element.append(document.createTextNode(describe(this.__data)))
      return element
    }
    override updateDOM() { return false }
    override isInline() { return inline }
    override decorate() { return null }
  }
  return Embed
}

export const UploadEmbedNode = embedClass('upload', false)
export const RelationshipEmbedNode = embedClass('relationship', false)
export const BlockEmbedNode = embedClass('block', false)
export const InlineBlockEmbedNode = embedClass('inlineBlock', true)
export const EMBED_NODES = [UploadEmbedNode, RelationshipEmbedNode, BlockEmbedNode, InlineBlockEmbedNode]

export function $createEmbedNode(data: Data): LexicalNode {
  const klass = { upload: UploadEmbedNode, relationship: RelationshipEmbedNode, block: BlockEmbedNode, inlineBlock: InlineBlockEmbedNode }[data.type]!
  return new klass(data)
}
