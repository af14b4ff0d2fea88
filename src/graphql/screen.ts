/**
 * The cheap look at a query before graphql-js validates it (docs/graphql.md, "Limits"): its size in bytes
 * before parsing, its tokens while parsing (graphql-js stops at `maxTokens`), then one walk over the
 * parsed document counting field selections per selection set, fields in the whole document and aliases,
 * introspection fields included and fragments not followed. Validation's cost grows with these counts
 * (many same-named fields are compared pair by pair), so a document over them is refused before it starts.
 */
import { GraphQLError, Kind, parse, type DocumentNode, type SelectionSetNode } from 'graphql';

export type ScreenLimits = {
  maxQueryBytes: number;
  maxTokens: number;
  maxSelections: number;
  maxFields: number;
  maxAliases: number;
};

const refusal = (message: string) => new GraphQLError(message, { extensions: { statusCode: 400 } });

/** The parsed document, or the one error that refuses it. */
export function screenQuery(query: string, limits: ScreenLimits): { document: DocumentNode } | { error: GraphQLError } {
  const bytes = Buffer.byteLength(query);
  if (bytes > limits.maxQueryBytes)
    return { error: refusal(`The query is too large: ${bytes} bytes, at most ${limits.maxQueryBytes}.`) };
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: limits.maxTokens });
  } catch (error) {
    const message = (error as GraphQLError).message;
    // graphql-js words it "Document contains more that N tokens. Parsing aborted.": say it plainly.
    if (/more th(?:at|an) \d+ tokens/.test(message))
      return { error: refusal(`The query is too long: more than ${limits.maxTokens} tokens.`) };
    return { error: error as GraphQLError };
  }
  let fields = 0;
  let aliases = 0;
  let widest = 0;
  // Selection sets by hand, without graphql-js's generic visitor: arguments and directives hold no fields.
  const sets: SelectionSetNode[] = [];
  for (const definition of document.definitions)
    if ('selectionSet' in definition && definition.selectionSet) sets.push(definition.selectionSet);
  for (let set = sets.pop(); set; set = sets.pop()) {
    let count = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        count++;
        if (selection.alias) aliases++;
      }
      if ('selectionSet' in selection && selection.selectionSet) sets.push(selection.selectionSet);
    }
    fields += count;
    widest = Math.max(widest, count);
  }
  if (widest > limits.maxSelections)
    return {
      error: refusal(`A selection set holds ${widest} fields, at most ${limits.maxSelections}.`),
    };
  if (fields > limits.maxFields)
    return { error: refusal(`The query selects ${fields} fields, at most ${limits.maxFields}.`) };
  if (aliases > limits.maxAliases)
    return { error: refusal(`The query has too many aliases: ${aliases}, at most ${limits.maxAliases}.`) };
  return { document };
}
