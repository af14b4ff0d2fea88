/**
 * What a query may cost, measured on the validated document (with its variables) before anything runs:
 * - depth: nested selections, fragments followed; introspection fields add none (a client's schema query is
 *   deep by nature);
 * - complexity: what the query asks for, each field once: 1 a field, a relationship or join its own weight
 *   (10); introspection fields nothing;
 * - size: what the answer may hold, every field (introspection fields too) counted once per item of every
 *   list it sits in: a page of documents its `limit` (10 when not given; `pagination: false` the per-request
 *   document cap), a join its `limit` or `defaultLimit`, a hasMany relationship, an array or a blocks field its
 *   `maxRows` (10 when not set). This is what refuses a relationship followed level after level under a
 *   large page, which asks for little and would build millions of documents.
 * Over `graphQL.maxDepth`, `maxComplexity`, `maxResultSize` or `maxAliases` (aliases counted through
 * fragments), the request is refused whole.
 */
import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

export type Limits = { maxComplexity: number; maxResultSize: number; maxDepth: number; maxAliases: number };
/** `size`: fields the answer may hold, lists multiplied out; `cost`: fields asked for, each once. */
type Measure = { size: number; cost: number; depth: number; aliases: number };
/** Where a list field's bound comes from, set on the field's `extensions` by the schema build. */
export type ListBound = { listBound?: number; pageDefault?: number };

type Walk = {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** What a `pagination: false` list is counted as holding. */
  wholeList: number;
  measured: Map<string, Measure>;
};

export function checkLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | null,
  limits: Limits & { wholeList: number },
): GraphQLError[] {
  const root = schema.getRootType(operation.operation);
  if (!root) return [];
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const walk: Walk = {
    schema,
    fragments,
    variables: variables ?? {},
    wholeList: limits.wholeList,
    measured: new Map(),
  };
  const m = measure(walk, operation.selectionSet, root, undefined);
  const name = operation.name ? ` "${operation.name.value}"` : '';
  const errors: GraphQLError[] = [];
  if (m.depth > limits.maxDepth)
    errors.push(refusal(`Query${name} is too deep: ${m.depth} levels, at most ${limits.maxDepth}.`));
  if (m.cost > limits.maxComplexity)
    errors.push(refusal(`Query${name} is too complex: ${m.cost}, at most ${limits.maxComplexity}.`));
  if (m.size > limits.maxResultSize)
    errors.push(
      refusal(
        `Query${name} could answer too much: ${Math.round(m.size)} values, at most ${limits.maxResultSize}. Every field counts once per item of the lists it sits in: ask for a smaller limit or fewer nested relationships.`,
      ),
    );
  if (m.aliases > limits.maxAliases)
    errors.push(refusal(`Query${name} has too many aliases: ${m.aliases}, at most ${limits.maxAliases}.`));
  return errors;
}

const refusal = (message: string) => new GraphQLError(message, { extensions: { statusCode: 400 } });

/** A literal or variable argument's number, if it is one. */
function numberArg(walk: Walk, node: FieldNode, name: string): number | boolean | undefined {
  const arg = node.arguments?.find((a) => a.name.value === name);
  if (!arg) return undefined;
  const value: ValueNode = arg.value;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.BOOLEAN) return value.value;
  if (value.kind === Kind.VARIABLE) {
    const v = walk.variables[value.name.value];
    return typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
  }
  return undefined;
}

/** How many items the paged field's list may hold: its `limit` (or default), or every document without pagination. */
function pageSize(walk: Walk, node: FieldNode, field: GraphQLField<unknown, unknown>): number | undefined {
  const bound = field.extensions as ListBound;
  if (!field.args.some((a) => a.name === 'limit')) return undefined;
  if (field.args.some((a) => a.name === 'pagination') && numberArg(walk, node, 'pagination') === false)
    return walk.wholeList;
  const limit = numberArg(walk, node, 'limit');
  return typeof limit === 'number' && limit > 0 ? limit : (bound.pageDefault ?? 10);
}

/**
 * Fragments hold no cycles (validation ran), and each is measured once per page size it is spread under,
 * so a document spreading fragments into fragments cannot make this walk itself expensive.
 */
function measure(
  walk: Walk,
  set: SelectionSetNode,
  parent: GraphQLNamedType | undefined,
  page: number | undefined,
): Measure {
  const total: Measure = { size: 0, cost: 0, depth: 0, aliases: 0 };
  const add = (m: Measure, times: number, depthOffset: number) => {
    total.size += m.size * times;
    total.cost += m.cost;
    total.aliases += m.aliases;
    total.depth = Math.max(total.depth, m.depth + depthOffset);
  };
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (selection.alias) total.aliases++;
      const field = parent && isObjectType(parent) ? parent.getFields()[name] : undefined;
      const introspection = name.startsWith('__');
      if (introspection && !field) {
        // `__typename`, `__schema`, `__type`: they take room in the answer like any field, and add no depth.
        total.size += 1;
        if (selection.selectionSet) {
          const type =
            name === '__typename' ? undefined : walk.schema.getType(name === '__schema' ? '__Schema' : '__Type');
          add(measure(walk, selection.selectionSet, type, undefined), 1, -Infinity);
        }
        continue;
      }
      const weight = typeof field?.extensions?.complexity === 'number' ? field.extensions.complexity : 1;
      const list = field && isListType(getNullableType(field.type));
      const times = list ? (page ?? (field.extensions as ListBound).listBound ?? 1) : 1;
      total.size += weight * times;
      total.cost += weight;
      total.depth = Math.max(total.depth, 1);
      if (selection.selectionSet) {
        const inner = field ? pageSize(walk, selection, field) : undefined;
        add(measure(walk, selection.selectionSet, field && getNamedType(field.type), inner), times, 1);
      }
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : parent;
      add(measure(walk, selection.selectionSet, type, page), 1, 0);
    } else {
      const fragment = walk.fragments.get(selection.name.value);
      if (!fragment) continue;
      const key = `${fragment.name.value}:${page ?? ''}`;
      let m = walk.measured.get(key);
      if (!m)
        walk.measured.set(
          key,
          (m = measure(walk, fragment.selectionSet, walk.schema.getType(fragment.typeCondition.name.value), page)),
        );
      add(m, 1, 0);
    }
  }
  return total;
}
