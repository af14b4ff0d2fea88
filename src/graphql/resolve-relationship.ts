/**
 * A relationship or upload field's value (one collection; several: polymorphic.ts): ids as stored become documents through the request's loader,
 * so depth follows the selection (a client that selects `author { name }` gets one level, and only the
 * levels it selects are read).
 */
import type { GraphQLFieldResolver } from 'graphql';
import type { SanitizedField } from '../config/types.ts';
import { contextAt, type GraphQLRequest } from './request-context.ts';
import { trySpendDocuments } from '../operations/steps/document-budget.ts';

type Doc = Record<string, unknown>;

export function resolveRelationship(field: SanitizedField): GraphQLFieldResolver<Doc, GraphQLRequest> {
  return (parent, _args, req, info) => {
    const value = parent[field.name];
    const ctx = contextAt(req, info);
    const many = Array.isArray(value);
    // Past the request's budget nothing more is read: the whole answer becomes that one error (execute.ts).
    if (!trySpendDocuments(ctx, many ? value.length : value == null ? 0 : 1)) return many ? [] : null;
    const one = (v: unknown) =>
      typeof v === 'number' ? req.loader.load(ctx, field.relationTo as string, v) : (v ?? null);
    return many ? Promise.all(value.map(one)) : one(value);
  };
}
