/**
 * The `_status` (and `status`) of drafts collections and globals in write inputs and filters: an enum of
 * `draft` and `published`, as Payload types its own `_status` select (`mutationPost__status_MutationInput`,
 * `Post__status_Input`), so `_status: published` works. Quoted values (`_status: "published"`) are taken too,
 * so queries written against a plain string keep working.
 */
import { GraphQLEnumType, Kind, type ValueNode } from 'graphql';
import type { SchemaBuild } from './build-state.ts';

class StatusEnum extends GraphQLEnumType {
  override parseLiteral(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
    return node.kind === Kind.STRING ? this.parseValue(node.value) : super.parseLiteral(node, variables);
  }
}

export const statusInput = (name: string, build: SchemaBuild): GraphQLEnumType =>
  build.named(
    name,
    () => new StatusEnum({ name, values: { draft: { value: 'draft' }, published: { value: 'published' } } }),
  );
