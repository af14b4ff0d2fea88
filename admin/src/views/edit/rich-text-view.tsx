/**
 * Stored values as a reader sees them, for the version viewer: rich text (Lexical JSON) as formatted text
 * built from elements (never parsed HTML, so stored text cannot inject markup), with the paragraphs one
 * version has and the other lacks marked, and uploads as thumbnails labelled by their alt text or file name.
 */
import type { ComponentChildren } from 'preact';
import { docs, type Doc } from '../../api.ts';
import { same } from '../../form/values.ts';
import { thumbnailURL } from '../../upload.ts';
import { t } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';

type Node = { type?: string; children?: Node[]; [key: string]: unknown };

const FORMATS: [number, 'strong' | 'em' | 's' | 'u' | 'code' | 'sub' | 'sup'][] = [
  [1, 'strong'],
  [2, 'em'],
  [4, 's'],
  [8, 'u'],
  [16, 'code'],
  [32, 'sub'],
  [64, 'sup'],
];

/** The top-level nodes of a rich text value (none for anything else). */
const topNodes = (value: unknown): Node[] => {
  const root = (value as { root?: Node } | null)?.root;
  return Array.isArray(root?.children) ? root.children : [];
};

/** Which of `mine` are not in `theirs`, by the longest common run of equal nodes. */
function unmatched(mine: Node[], theirs: Node[]): boolean[] {
  const n = mine.length;
  const m = theirs.length;
  const lengths: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lengths[i]![j] = same(mine[i], theirs[j])
        ? lengths[i + 1]![j + 1]! + 1
        : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const out = new Array<boolean>(n).fill(true);
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (same(mine[i], theirs[j])) {
      out[i] = false;
      i++;
      j++;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/**
 * A rich text value as text. With `against`, each paragraph (or other top-level node) the other version
 * lacks is marked: as inserted when this is the newer version, as removed when it is the older.
 */
export function RichTextView(props: { value: unknown; against?: unknown; newer?: boolean }) {
  const nodes = topNodes(props.value);
  if (nodes.length === 0) return <span class="muted">—</span>;
  const marks = props.against === undefined ? nodes.map(() => false) : unmatched(nodes, topNodes(props.against));
  return (
    <div class="rich-text-view">
      {nodes.map((node, i) => {
        const shown = <NodeView node={node} />;
        if (!marks[i]) return shown;
        return props.newer ? (
          <ins key={i} class="diff-added">
            {shown}
          </ins>
        ) : (
          <del key={i} class="diff-removed">
            {shown}
          </del>
        );
      })}
    </div>
  );
}

const safeHref = (url: unknown): string | undefined => {
  const text = typeof url === 'string' ? url.trim() : '';
  if (/^(https?:|mailto:|tel:|\/|#)/i.test(text)) return text;
  return undefined;
};

function NodeView(props: { node: Node }): ComponentChildren {
  const node = props.node;
  const children = () => (node.children ?? []).map((child, i) => <NodeView key={i} node={child} />);
  switch (node.type) {
    case 'text': {
      let out: ComponentChildren = String(node.text ?? '');
      const format = typeof node.format === 'number' ? node.format : 0;
      for (const [bit, Tag] of FORMATS) if (format & bit) out = <Tag>{out}</Tag>;
      return out;
    }
    case 'linebreak':
      return <br />;
    case 'tab':
      return '\t';
    case 'horizontalrule':
      return <hr />;
    case 'paragraph':
      return <p>{children()}</p>;
    case 'heading': {
      const Tag = /^h[1-6]$/.test(String(node.tag)) ? (String(node.tag) as 'h2') : 'h2';
      return <Tag>{children()}</Tag>;
    }
    case 'quote':
      return <blockquote>{children()}</blockquote>;
    case 'list':
      return node.listType === 'number' ? <ol>{children()}</ol> : <ul>{children()}</ul>;
    case 'listitem':
      return <li>{children()}</li>;
    case 'link':
    case 'autolink': {
      const fields = (node.fields ?? {}) as { url?: unknown; linkType?: unknown; doc?: { relationTo?: string } };
      if (fields.linkType === 'internal')
        return (
          <span class="internal-link" title={fields.doc?.relationTo}>
            {children()}
          </span>
        );
      return (
        <a href={safeHref(fields.url)} target="_blank" rel="noopener noreferrer">
          {children()}
        </a>
      );
    }
    case 'upload':
      return <UploadView relationTo={String(node.relationTo ?? 'media')} value={node.value} />;
    case 'relationship':
      return (
        <span class="badge">
          {String(node.relationTo)} #{String(idOf(node.value))}
        </span>
      );
    case 'block':
    case 'inlineBlock': {
      const fields = (node.fields ?? {}) as { blockType?: unknown; blockName?: unknown };
      return <span class="badge">{String(fields.blockName || fields.blockType || node.type)}</span>;
    }
    default:
      return node.children ? <div>{children()}</div> : null;
  }
}

const idOf = (value: unknown) => (typeof value === 'object' && value ? (value as { id?: unknown }).id : value);

/** An upload as its thumbnail, read when only its id is stored; a file that is not an image by its name. */
export function UploadView(props: { relationTo: string; value: unknown }) {
  const given = typeof props.value === 'object' && props.value ? (props.value as Doc) : null;
  const id = idOf(props.value);
  const loaded = useLoad(
    () => (given || id === null || id === undefined ? undefined : docs.get(props.relationTo, id as number)),
    [props.relationTo, String(id)],
  );
  const doc = given ?? loaded.data;
  if (id === null || id === undefined) return <span class="muted">—</span>;
  if (!doc) return <span class="muted">{t('ui.loading')}</span>;
  const name = String(doc.alt || doc.filename || `#${String(id)}`);
  const url = thumbnailURL(doc);
  return url ? (
    <img class="version-thumb" src={url} alt={name} loading="lazy" />
  ) : (
    <span>{String(doc.filename ?? name)}</span>
  );
}
