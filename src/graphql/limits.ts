/**
 * What a query may cost, measured on its text before anything runs: depth (nested selections, fragments
 * followed), complexity (1 per field, a relationship's own weight, usually 10, plus what it selects), and
 * aliases. Over `graphQL.maxDepth`, `maxComplexity` or `maxAliases`, the request is refused whole.
 * Introspection fields are not counted: a client's schema query is cheap and deep by nature.
 */
import {
  GraphQLError,
  Kind,
  getNamedType,
  isObjectType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

export type Limits = { maxComplexity: number; maxDepth: number; maxAliases: number };
type Measure = { cost: number; depth: number; aliases: number };

export function checkLimits(schema: GraphQLSchema, document: DocumentNode, limits: Limits): GraphQLError[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const errors: GraphQLError[] = [];
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = schema.getRootType(definition.operation);
    if (!root) continue;
    const m = measure(schema, definition.selectionSet, root, fragments, new Map());
    const name = definition.name ? ` "${definition.name.value}"` : '';
    if (m.depth > limits.maxDepth)
      errors.push(refusal(`Query${name} is too deep: ${m.depth} levels, at most ${limits.maxDepth}.`));
    if (m.cost > limits.maxComplexity)
      errors.push(refusal(`Query${name} is too complex: ${m.cost}, at most ${limits.maxComplexity}.`));
    if (m.aliases > limits.maxAliases)
      errors.push(refusal(`Query${name} has too many aliases: ${m.aliases}, at most ${limits.maxAliases}.`));
  }
  return errors;
}

const refusal = (message: string) => new GraphQLError(message, { extensions: { statusCode: 400 } });

/**
 * Run after validation, so fragments hold no cycles; each fragment is measured once (`measured`), so a
 * document spreading fragments into fragments cannot make this walk itself expensive.
 */
function measure(
  schema: GraphQLSchema,
  set: SelectionSetNode,
  parent: GraphQLNamedType | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  measured: Map<string, Measure>,
): Measure {
  const total: Measure = { cost: 0, depth: 0, aliases: 0 };
  const add = (m: Measure, depthOffset: number) => {
    total.cost += m.cost;
    total.aliases += m.aliases;
    total.depth = Math.max(total.depth, m.depth + depthOffset);
  };
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (selection.alias) total.aliases++;
      if (name.startsWith('__')) continue;
      const field = parent && isObjectType(parent) ? parent.getFields()[name] : undefined;
      total.cost += typeof field?.extensions?.complexity === 'number' ? field.extensions.complexity : 1;
      total.depth = Math.max(total.depth, 1);
      if (selection.selectionSet)
        add(measure(schema, selection.selectionSet, field && getNamedType(field.type), fragments, measured), 1);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      add(
        measure(
          schema,
          selection.selectionSet,
          selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent,
          fragments,
          measured,
        ),
        0,
      );
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment) continue;
      let m = measured.get(name);
      if (!m)
        measured.set(
          name,
          (m = measure(
            schema,
            fragment.selectionSet,
            schema.getType(fragment.typeCondition.name.value),
            fragments,
            measured,
          )),
        );
      add(m, 0);
    }
  }
  return total;
}
