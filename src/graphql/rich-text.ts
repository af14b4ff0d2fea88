/**
 * Rich text as a string: the `richText` argument (`html`, `markdown` or `text`, docs/rich-text.md) on a
 * rich text field (`content(richText: html)`) or on a read query (`Post(id: 1, richText: html)`, for every
 * rich text value under it). Without it a rich text value is its Lexical JSON. Uploads, relationships and
 * internal links in the text are read through the request's loader (under the reader's access, `null`
 * where not readable) at the field's `depth` argument (default 1, as REST's default; 0 keeps ids, as
 * Payload's own rich text field takes `depth`), so JSON and HTML carry the documents REST's would.
 */
import {
  GraphQLEnumType,
  GraphQLInt,
  Kind,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type ValueNode,
} from 'graphql';
import type { SanitizedField } from '../config/types.ts';
import { convertRichText, RICH_TEXT_FORMATS, type RichTextFormat } from '../richtext/convert-values.ts';
import { isObject, isRichTextValue, visitNodes, type RichTextValue } from '../richtext/nodes.ts';
import { contextAt, type GraphQLRequest } from './request-context.ts';

/** An enum (`richText: html`) that takes the quoted form (`richText: "html"`) too, as REST's query string has it. */
class FormatEnum extends GraphQLEnumType {
  override parseLiteral(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
    return node.kind === Kind.STRING ? this.parseValue(node.value) : super.parseLiteral(node, variables);
  }
}

const RichTextFormatType = new FormatEnum({
  name: 'RichTextFormat',
  description: 'Rich text as a string in this format instead of Lexical JSON.',
  values: Object.fromEntries(RICH_TEXT_FORMATS.map((format) => [format, { value: format }])),
});

export const richTextArgs: GraphQLFieldConfigArgumentMap = { richText: { type: RichTextFormatType } };

/** The rich text field's own arguments: the format, and how deep the text's documents are read (0 or more). */
export const richTextFieldArgs: GraphQLFieldConfigArgumentMap = { ...richTextArgs, depth: { type: GraphQLInt } };

/** The format the root field of this selection asked for (`Post(richText: html)`), if any. */
function formatAt(req: GraphQLRequest, info: GraphQLResolveInfo): RichTextFormat | undefined {
  let path = info.path;
  while (path.prev) path = path.prev;
  return req.richText.get(path.key as string);
}

type Doc = Record<string, unknown>;

/** A copy of the value with its upload and relationship nodes' and internal links' targets read. */
async function populated(value: RichTextValue, req: GraphQLRequest, info: GraphQLResolveInfo): Promise<RichTextValue> {
  const copy = structuredClone(value);
  const ctx = contextAt(req, info);
  const reads: Promise<void>[] = [];
  const load = (target: Doc) => {
    if (typeof target.relationTo !== 'string' || typeof target.value !== 'number') return;
    if (!req.cms.config.collectionsBySlug.has(target.relationTo)) return;
    reads.push(
      req.loader.load(ctx, target.relationTo, target.value).then((doc) => {
        target.value = doc;
      }),
    );
  };
  visitNodes(copy, (node) => {
    if (node.type === 'upload' || node.type === 'relationship') load(node as Doc);
    else if ((node.type === 'link' || node.type === 'autolink') && isObject(node.fields) && isObject(node.fields.doc))
      load(node.fields.doc);
  });
  await Promise.all(reads);
  return copy;
}

type Args = { richText?: RichTextFormat | null; depth?: number | null };

export function resolveRichText(field: SanitizedField): GraphQLFieldResolver<Doc, GraphQLRequest, Args> {
  return async (parent, args, req, info) => {
    const value = parent[field.name];
    if (!isRichTextValue(value)) return value;
    const format = args.richText ?? formatAt(req, info);
    const read = (args.depth ?? 1) > 0 && format !== 'text' ? await populated(value, req, info) : value;
    return format ? convertRichText(read, format) : read;
  };
}
