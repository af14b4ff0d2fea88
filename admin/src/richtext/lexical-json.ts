/**
 * Payload's link nodes keep their target in `fields` ({ linkType, url, newTab, doc }); Lexical's own link
 * node keeps `url`, `target` and `rel`. Values are mapped on the way in and out, so the editor uses
 * Lexical's link node unchanged and the API receives Payload's shape. An internal link travels through
 * the editor as the URL `cms-doc:<collection>/<id>`.
 */
type Node = Record<string, unknown> & { type?: string; children?: Node[] };

const INTERNAL = /^cms-doc:([a-z][\w-]*)\/(\d+)$/i;

/**
 * Whether the editor keeps a link to this URL: the forms the HTML conversion lets through (http, https,
 * mailto, tel, relative, fragments) and internal links. Pasted `javascript:` and `data:` links lose their
 * link and keep their text, so they are never stored (docs/rich-text.md).
 */
export function isAllowedLinkURL(url: string): boolean {
  // eslint-disable-next-line no-control-regex
  const cleaned = url.trim().replace(/[\x00-\x1f\x7f]/g, '');
  if (INTERNAL.test(cleaned)) return true;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned);
  if (scheme) return ['http', 'https', 'mailto', 'tel'].includes(scheme[1]!.toLowerCase());
  return !/^[^/?#]*:/.test(cleaned);
}

function mapTree(node: Node, map: (node: Node) => Node): Node {
  const out = map(node);
  return Array.isArray(out.children) ? { ...out, children: out.children.map((child) => mapTree(child, map)) } : out;
}

export function toLexical(value: Record<string, unknown>): Record<string, unknown> {
  return {
    root: mapTree(value.root as Node, (node) => {
      if (node.type !== 'link' && node.type !== 'autolink') return node;
      const fields = (node.fields ?? {}) as Record<string, unknown>;
      const doc = fields.doc as { relationTo?: string; value?: unknown } | undefined;
      const id = doc && typeof doc.value === 'object' && doc.value ? (doc.value as { id?: unknown }).id : doc?.value;
      const url =
        fields.linkType === 'internal' && doc ? `cms-doc:${doc.relationTo}/${String(id)}` : String(fields.url ?? '');
      return {
        ...node,
        url,
        target: fields.newTab ? '_blank' : null,
        rel: fields.newTab ? 'noopener noreferrer' : null,
        title: null,
        version: 1,
      };
    }),
  };
}

export function fromLexical(value: Record<string, unknown>): Record<string, unknown> {
  return {
    root: mapTree(value.root as Node, (node) => {
      if (node.type !== 'link' && node.type !== 'autolink') return node;
      const {
        url,
        target,
        rel: _rel,
        title: _title,
        ...rest
      } = node as Node & { url?: string; target?: string | null };
      const internal = INTERNAL.exec(String(url ?? ''));
      const newTab = target === '_blank';
      const fields = internal
        ? { linkType: 'internal', newTab, doc: { relationTo: internal[1], value: Number(internal[2]) } }
        : { linkType: 'custom', url: String(url ?? ''), newTab };
      return { ...rest, fields, version: node.type === 'link' ? 3 : 2 };
    }),
  };
}
