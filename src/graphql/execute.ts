/**
 * One GraphQL operation from request to answer: the parameters checked, the document screened, parsed and
 * validated (kept per query text, so a repeated query is parsed once), measured against the limits with
 * its variables, executed with graphql-js, and its errors in the API's shape:
 * `{ message, path, extensions: { statusCode, field? } }`.
 */
import {
  GraphQLError,
  execute,
  getOperationAST,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { CMS } from '../cms.ts';
import { APIError, badRequest } from '../errors.ts';
import { schemaOf } from './schema.ts';
import { checkLimits } from './limits.ts';
import { screenQuery } from './screen.ts';
import { budgetError, overBudget } from '../operations/steps/document-budget.ts';
import { readsRequest, type GraphQLRequest } from './request-context.ts';
import { dependenciesOf } from '../cache/dependencies.ts';

export type GraphQLParams = { query: string; variables: Record<string, unknown> | null; operationName: string | null };

/** `{ query, variables, operationName }` from a JSON body or a GET's query string (variables as JSON text). */
export function readParams(raw: unknown): GraphQLParams {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw badRequest('Send { query, variables, operationName }.');
  const { query, variables, operationName } = raw as Record<string, unknown>;
  if (typeof query !== 'string' || !query.trim()) throw badRequest('A query is required.', 'query');
  let vars = variables;
  if (typeof vars === 'string') {
    try {
      vars = vars ? JSON.parse(vars) : null;
    } catch {
      throw badRequest('variables must be JSON.', 'variables');
    }
  }
  if (vars !== undefined && vars !== null && (typeof vars !== 'object' || Array.isArray(vars)))
    throw badRequest('variables must be an object.', 'variables');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    throw badRequest('operationName must be a string.', 'operationName');
  return {
    query,
    variables: (vars as Record<string, unknown>) ?? null,
    operationName: (operationName as string) ?? null,
  };
}

export type Plan = { document: DocumentNode; errors: readonly GraphQLError[] };

const PLANS_KEPT = 500;
/**
 * Query text kept with its plans, in characters. A parsed document weighs about fifty times its text (a
 * node per token, and the tokens linked for error locations), so the count alone would let 500 distinct
 * queries near the size bound hold more than a gigabyte; an application's queries, a few KB each, fit.
 */
const PLAN_TEXT_KEPT = 512 * 1024;
type KeptPlans = { plans: Map<string, Plan>; text: number };
const plans = new WeakMap<GraphQLSchema, KeptPlans>();

/** The query parsed, validated and measured: errors here mean nothing runs. */
export function planQuery(cms: CMS, query: string): Plan {
  const schema = schemaOf(cms.config);
  let kept = plans.get(schema);
  if (!kept) plans.set(schema, (kept = { plans: new Map(), text: 0 }));
  let plan = kept.plans.get(query);
  if (plan) return plan;
  plan = makePlan(cms, schema, query);
  if (query.length > PLAN_TEXT_KEPT / 8) return plan; // one large query may not push out the others
  for (const [text] of kept.plans) {
    if (kept.plans.size < PLANS_KEPT && kept.text + query.length <= PLAN_TEXT_KEPT) break;
    kept.plans.delete(text);
    kept.text -= text.length;
  }
  kept.plans.set(query, plan);
  kept.text += query.length;
  return plan;
}

function makePlan(cms: CMS, schema: GraphQLSchema, query: string): Plan {
  // Size, tokens, selections and aliases first: validation's own cost grows with them (screen.ts).
  const screened = screenQuery(query, cms.config.graphQL!);
  if ('error' in screened)
    return {
      document: { kind: 'Document', definitions: [] } as unknown as DocumentNode,
      errors: [screened.error],
    };
  const document = screened.document;
  const invalid = validate(schema, document, specifiedRules, { maxErrors: 20 });
  return { document, errors: invalid };
}

/**
 * The cost of the operation to run, with this request's variables (a `limit` may be one): errors mean
 * nothing runs (limits.ts).
 */
export function costErrors(cms: CMS, plan: Plan, operation: OperationDefinitionNode, params: GraphQLParams) {
  return checkLimits(schemaOf(cms.config), plan.document, operation, params.variables, {
    ...cms.config.graphQL!,
    wholeList: cms.config.maxPopulatedDocuments,
  });
}

/** The operation to run, or a 400 when the document does not say which. */
export function operationOf(plan: Plan, params: GraphQLParams): OperationDefinitionNode {
  const operation = getOperationAST(plan.document, params.operationName);
  if (!operation)
    throw badRequest(
      params.operationName
        ? `Unknown operation "${params.operationName}".`
        : 'Name the operation to run (operationName).',
      'operationName',
    );
  return operation;
}

export async function runOperation(req: GraphQLRequest, plan: Plan, params: GraphQLParams): Promise<ExecutionResult> {
  const result = await execute({
    schema: schemaOf(req.cms.config),
    document: plan.document,
    variableValues: params.variables,
    operationName: params.operationName,
    contextValue: req,
  });
  // Past the related-document budget the resolvers stopped reading: the answer is that error, not the part read.
  const budget = req.ctx.documents;
  if (budget && overBudget(req.ctx)) return { errors: [budgetError(budget.limit)].map(asGraphQLError), data: null };
  return result;
}

const asGraphQLError = (error: APIError) => new GraphQLError(error.message, { originalError: error });

export type ErrorItem = {
  message: string;
  path?: readonly (string | number)[];
  locations?: unknown;
  extensions: { statusCode: number; field?: string; errors?: unknown };
};

export function formatError(cms: CMS, error: GraphQLError): ErrorItem {
  const where = {
    ...(error.path ? { path: error.path } : {}),
    ...(error.locations ? { locations: error.locations } : {}),
  };
  const original = error.originalError;
  if (original instanceof APIError) {
    const extensions: ErrorItem['extensions'] = { statusCode: original.status };
    if (original.field) extensions.field = original.field;
    if (original.errors && original.errors.length > 1) extensions.errors = original.toBody().errors;
    return { message: original.message, ...where, extensions };
  }
  if (original && !(original instanceof GraphQLError)) {
    cms.log.error(original);
    const message = cms.config.dev ? `${original.name}: ${original.message}` : 'Something went wrong.';
    return { message, ...where, extensions: { statusCode: 500 } };
  }
  const statusCode = typeof error.extensions?.statusCode === 'number' ? error.extensions.statusCode : 400;
  return { message: error.message, ...where, extensions: { statusCode } };
}

export function formatResult(cms: CMS, result: ExecutionResult): { errors?: ErrorItem[]; data?: unknown } {
  const errors = result.errors?.map((e) => formatError(cms, e));
  return { ...(errors?.length ? { errors } : {}), data: result.data ?? null };
}

/**
 * The tables an answer depends on, for the response cache; null when it must not be kept: it has errors,
 * it is about the session, a rule or hook looked at the request, or an entity read keeps no answers.
 */
export function cacheTables(req: GraphQLRequest, result: ExecutionResult): string[] | null {
  if (result.errors?.length || req.personal || readsRequest(req)) return null;
  const tables = new Set<string>();
  for (const entity of req.read) {
    if (!entity.cache.enabled) return null;
    for (const table of dependenciesOf(req.cms.config, entity)) tables.add(table);
  }
  return [...tables].sort();
}
