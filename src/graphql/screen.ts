/**
 * The cheap look at a query before graphql-js validates it (docs/graphql.md, "Limits"): its size in bytes
 * before parsing, its tokens while parsing (graphql-js stops at `maxTokens`), then one walk over the
 * parsed document counting field selections per selection set, fields in the whole document and aliases,
 * introspection fields included. Validation's cost grows with these counts (many same-named fields are
 * compared pair by pair), so a document over them is refused before it starts. A set's width takes in the
 * fields its inline fragments and the named fragments spread in it bring (each name once, as validation
 * merges them), since validation compares those with the set's own fields and with each other.
 */
import {
  GraphQLError,
  Kind,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

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
  const width = setWidth(document);
  // Selection sets by hand, without graphql-js's generic visitor: arguments and directives hold no fields.
  const sets: SelectionSetNode[] = [];
  for (const definition of document.definitions)
    if ('selectionSet' in definition && definition.selectionSet) sets.push(definition.selectionSet);
  for (let set = sets.pop(); set; set = sets.pop()) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        fields++;
        if (selection.alias) aliases++;
        if (selection.selectionSet) widest = Math.max(widest, width(selection.selectionSet));
      }
      if ('selectionSet' in selection && selection.selectionSet) sets.push(selection.selectionSet);
    }
  }
  for (const definition of document.definitions)
    if ('selectionSet' in definition && definition.selectionSet)
      widest = Math.max(widest, width(definition.selectionSet));
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

/**
 * The fields a selection set brings together for validation: its own, those of its inline fragments, and
 * those of each named fragment spread in it (once per name, circles cut: validation names them).
 */
function setWidth(document: DocumentNode): (set: SelectionSetNode) => number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const ofFragment = new Map<string, number>();
  const open = new Set<string>();
  const width = (set: SelectionSetNode, spread: Set<string>): number => {
    let count = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) count++;
      else if (selection.kind === Kind.INLINE_FRAGMENT) count += width(selection.selectionSet, spread);
      else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        count += fragmentWidth(selection.name.value);
      }
    }
    return count;
  };
  const fragmentWidth = (name: string): number => {
    const known = ofFragment.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (!fragment || open.has(name)) return 0;
    open.add(name);
    const count = width(fragment.selectionSet, new Set([name]));
    open.delete(name);
    ofFragment.set(name, count);
    return count;
  };
  return (set) => width(set, new Set());
}
