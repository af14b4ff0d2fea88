/**
 * Checks a rich text value node by node and answers it as stored: every node of a known type, in a place
 * where it may sit, with well-formed properties; Payload's defaults (`version`, `format`, `indent`,
 * `direction`) filled in where a write leaves them out, so Payload's renderers read the result unchanged.
 * Errors name the node's path (`content.root.children.3`). A Markdown string is stored as the same content.
 */
import type { SanitizedField } from '../config/types.ts';
import {
  ALL_TEXT_FORMATS,
  CHILDREN_OF,
  ELEMENT_FORMATS,
  HEADING_TAGS,
  LIST_TYPES,
  NODE_VERSIONS,
  isObject,
  type LexicalNode,
} from './nodes.ts';

type Doc = Record<string, unknown>;
type FieldError = { message: string; field: string };
/** Checks the fields of one embedded block (`row` is the node's `fields`) as a blocks field checks its rows. */
type ValidateBlock = (row: unknown, at: string) => Promise<{ row: Doc | null; errors: FieldError[] }>;

class NodeError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** Rich text nodes may nest this deep (lists in list items in lists …); a value's JSON is bounded anyway. */
const MAX_NODE_DEPTH = 40;

export async function validateRichText(
  field: SanitizedField,
  raw: unknown,
  key: string,
  validateBlock: ValidateBlock,
): Promise<{ value: unknown; errors: FieldError[] }> {
  // The Markdown reader (and the HTML reader it uses for raw HTML) loads with the first Markdown write.
  const input = typeof raw === 'string' ? (await import('./from-markdown.ts')).markdownToRichText(raw) : raw;
  if (!isObject(input) || !isObject(input.root))
    return {
      value: raw,
      errors: [{ field: key, message: 'Rich text must be an object with a "root" node (or a Markdown string).' }],
    };
  const blocks: { path: string; node: Doc }[] = [];
  let root: LexicalNode;
  try {
    if (input.root.type !== 'root') throw new NodeError(`${key}.root`, 'The top node must have type "root".');
    root = checkNode(input.root, 'root', `${key}.root`, 0, blocks);
  } catch (error) {
    if (error instanceof NodeError) return { value: raw, errors: [{ field: error.path, message: error.message }] };
    throw error;
  }
  const errors: FieldError[] = [];
  for (const { path, node } of blocks) {
    if (!field.richTextBlocks?.length) {
      errors.push({ field: path, message: 'This rich text field takes no blocks.' });
      continue;
    }
    const result = await validateBlock(node.fields, `${path}.fields`);
    errors.push(...result.errors);
    if (result.row) node.fields = result.row;
  }
  return { value: { root }, errors };
}

/** The node as stored; block nodes are collected so their fields can be checked like a blocks field's rows. */
function checkNode(
  node: unknown,
  parent: string,
  path: string,
  depth: number,
  blocks: { path: string; node: Doc }[],
): LexicalNode {
  if (!isObject(node)) throw new NodeError(path, 'Each node must be an object.');
  const type = node.type;
  if (typeof type !== 'string' || !(type in NODE_VERSIONS))
    throw new NodeError(path, `Unknown rich text node type ${JSON.stringify(type ?? null)}.`);
  if (type !== 'root' && !CHILDREN_OF[parent]?.has(type))
    throw new NodeError(path, `A "${type}" node cannot sit inside a "${parent}" node.`);
  if (depth > MAX_NODE_DEPTH)
    throw new NodeError(path, `Rich text nodes may nest at most ${MAX_NODE_DEPTH} levels deep.`);
  const out: LexicalNode = { ...node, type, version: integerOr(node.version, NODE_VERSIONS[type], path, 'version') };
  const fail = (message: string): never => {
    throw new NodeError(path, message);
  };
  if (type in CHILDREN_OF) {
    if (!Array.isArray(node.children)) fail(`A "${type}" node needs a list of children.`);
    out.children = (node.children as unknown[]).map((child, i) =>
      checkNode(child, type, `${path}.children.${i}`, depth + 1, blocks),
    );
    out.direction = node.direction === undefined ? null : node.direction;
    if (out.direction !== null && out.direction !== 'ltr' && out.direction !== 'rtl')
      fail('"direction" must be "ltr", "rtl" or null.');
    out.indent = integerOr(node.indent, 0, path, 'indent');
  }
  if (type in CHILDREN_OF || ['upload', 'relationship', 'block'].includes(type)) {
    out.format = node.format ?? '';
    if (typeof out.format !== 'string' || !ELEMENT_FORMATS.has(out.format))
      fail('"format" must be an alignment ("", left, center, right, justify, start, end).');
  }
  switch (type) {
    case 'text':
    case 'tab': {
      if (typeof node.text !== 'string') fail('A text node needs "text".');
      if (type === 'tab' && node.text !== '\t') fail('A tab node holds one tab character.');
      out.format = integerOr(node.format, 0, path, 'format');
      if ((out.format as number) > ALL_TEXT_FORMATS) fail(`"format" is a bit mask of at most ${ALL_TEXT_FORMATS}.`);
      out.style = node.style ?? '';
      if (typeof out.style !== 'string') fail('"style" must be text.');
      out.mode = node.mode ?? 'normal';
      if (!['normal', 'token', 'segmented'].includes(out.mode as string))
        fail('"mode" must be normal, token or segmented.');
      out.detail = integerOr(node.detail, 0, path, 'detail');
      break;
    }
    case 'paragraph':
      if (node.textFormat !== undefined) out.textFormat = integerOr(node.textFormat, 0, path, 'textFormat');
      break;
    case 'heading':
      if (typeof node.tag !== 'string' || !HEADING_TAGS.has(node.tag)) fail('A heading needs "tag" h1 to h6.');
      break;
    case 'list': {
      const listType = node.listType;
      if (typeof listType !== 'string' || !(listType in LIST_TYPES))
        fail('A list needs "listType" bullet, number or check.');
      out.tag = node.tag ?? LIST_TYPES[listType as string];
      if (out.tag !== LIST_TYPES[listType as string])
        fail(`A ${listType} list has tag "${LIST_TYPES[listType as string]}".`);
      out.start = integerOr(node.start, 1, path, 'start');
      break;
    }
    case 'listitem':
      out.value = integerOr(node.value, 1, path, 'value');
      if (node.checked !== undefined && typeof node.checked !== 'boolean') fail('"checked" must be true or false.');
      break;
    case 'link':
    case 'autolink':
      out.fields = checkLinkFields(node.fields, fail);
      break;
    case 'upload':
    case 'relationship': {
      if (typeof node.relationTo !== 'string' || !node.relationTo)
        fail(`An ${type} node needs "relationTo" (a collection).`);
      out.value = idOf(node.value) ?? fail(`An ${type} node needs "value" (a document id).`);
      if (type === 'upload' && node.fields !== undefined && node.fields !== null && !isObject(node.fields))
        fail('"fields" must be an object.');
      break;
    }
    case 'block':
    case 'inlineBlock':
      if (!isObject(node.fields)) fail(`A ${type} node needs "fields" ({ id, blockType, … }).`);
      blocks.push({ path, node: out });
      break;
  }
  return out;
}

function checkLinkFields(fields: unknown, fail: (message: string) => never): Doc {
  if (!isObject(fields)) fail('A link needs "fields" ({ linkType, url, newTab }).');
  const linkType = (fields as Doc).linkType ?? 'custom';
  const out: Doc = { ...(fields as Doc), linkType, newTab: (fields as Doc).newTab ?? false };
  if (typeof out.newTab !== 'boolean') fail('"newTab" must be true or false.');
  if (linkType === 'custom') {
    if (typeof out.url !== 'string') fail('A custom link needs "url".');
  } else if (linkType === 'internal') {
    const doc = out.doc;
    if (!isObject(doc) || typeof doc.relationTo !== 'string')
      fail('An internal link needs "doc" ({ relationTo, value }).');
    const id = idOf((doc as Doc).value) ?? fail('An internal link needs "doc.value" (a document id).');
    out.doc = { relationTo: (doc as Doc).relationTo, value: id };
  } else {
    fail('"linkType" must be custom or internal.');
  }
  return out;
}

/** A document id, also from a populated document sent back as read. */
function idOf(value: unknown): number | null {
  const raw = isObject(value) ? value.id : value;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

function integerOr(value: unknown, fallback: number, path: string, name: string): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new NodeError(path, `"${name}" must be a whole number, 0 or more.`);
  return value;
}
