/**
 * What `GET|POST <api>/graphql` runs (docs/graphql.md), loaded on the first GraphQL request
 * (src/http/routes/graphql.ts): parse the request, then run it through src/graphql. Queries go through the
 * response cache like REST reads; a mutation needs POST, and a cookie session's CSRF token.
 */
import { Kind, type GraphQLError, type OperationDefinitionNode } from 'graphql';
import type { CMS } from '../../cms.ts';
import { APIError, badRequest } from '../../errors.ts';
import { parseJSONBody, readText, passToRoute, readTextBeforeRouting, releaseBody } from '../body.ts';
import { credentialsOf } from '../authenticate.ts';
import type { RouteInput } from '../handle.ts';
import { checkCsrf, checkLoginOrigin } from '../authenticate.ts';
import { clientIP, ownOrigin, sessionClient } from '../client-ip.ts';
import { clearedCookies, sessionCookies } from './users.ts';
import { answerKeptRead, keptRead, readKey } from '../cached-read.ts';
import { createGraphQLRequest, type GraphQLRequest } from '../../graphql/request-context.ts';
import {
  cacheTables,
  costErrors,
  formatError,
  formatResult,
  operationOf,
  planQuery,
  readParams,
  runOperation,
  type GraphQLParams,
} from '../../graphql/execute.ts';
import { signInMutations } from '../../graphql/auth-fields.ts';

/** The sign-in mutations of a config, found once per instance. */
const signInOf = new WeakMap<CMS, Set<string>>();

export async function serveGraphQL(cms: CMS, input: RouteInput): Promise<Response> {
  const limits = cms.config.graphQL!;
  let signIn = signInOf.get(cms);
  if (!signIn) signInOf.set(cms, (signIn = signInMutations(cms.config)));
  const post = input.request.method === 'POST';
  const text = post ? await readText(input.request) : '';
  const raw = post ? parseJSONBody(text) : input.query;
  // A POSTed query is kept under its body as sent, a GET one under the key of every GET read.
  const what = post ? postKey(text) : readKey(input.request.url);
  if (!Array.isArray(raw)) return runOne(cms, input, readParams(raw), signIn, what);
  // Batched operations (Apollo's batch link): bounded, run one after another, never kept.
  if (input.request.method !== 'POST') throw badRequest('Batched operations need POST.');
  if (raw.length === 0 || raw.length > limits.maxBatch)
    throw badRequest(`A batch holds 1 to ${limits.maxBatch} operations.`);
  const answers: unknown[] = [];
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  for (const item of raw) {
    const answer = await runOne(cms, input, readParams(item), signIn, null);
    answers.push(await answer.json());
    for (const cookie of answer.headers.getSetCookie()) headers.append('set-cookie', cookie);
  }
  return new Response(JSON.stringify(answers), { headers });
}

async function runOne(
  cms: CMS,
  input: RouteInput,
  params: GraphQLParams,
  signIn: Set<string>,
  /** The cache key of the answer; null for an operation of a batch, which is never kept. */
  what: string | null,
): Promise<Response> {
  const { request, credentials } = input;
  const batched = what === null;
  // A query asked for again is answered from the cache before it is even parsed.
  if (!batched && request.method === 'POST' && !answeredEarly.has(request)) {
    const kept = await answerKeptRead(cms, request, credentials, what);
    if (kept) return kept;
  }
  // A query that cannot run: 400 for clients of the GraphQL-over-HTTP media type, 200 for plain JSON ones (that spec's rule).
  const refuse = (errors: readonly GraphQLError[]) =>
    answer(
      { errors: errors.map((e) => formatError(cms, e)), data: null },
      wantsGraphQLResponse(request) ? 400 : 200,
      undefined,
      request,
    );
  const plan = planQuery(cms, params.query);
  if (plan.errors.length) return refuse(plan.errors);
  const operation = operationOf(plan, params);
  const tooCostly = costErrors(cms, plan, operation, params);
  if (tooCostly.length) return refuse(tooCostly);
  input.ctx.via = 'graphql'; // the audit log's `via` for every write of this request
  const req = createGraphQLRequest(cms, input.ctx, credentials, {
    client: sessionClient(cms.config, request),
    get ip() {
      return clientIP(cms.config, request);
    },
    get origin() {
      return ownOrigin(cms.config, request);
    },
    checkLoginOrigin: () => checkLoginOrigin(cms, request),
    sessionCookies: (token, csrfToken) => sessionCookies(cms, token, csrfToken),
    clearedCookies: () => clearedCookies(cms),
  });
  if (operation.operation === 'query' && !batched) {
    return keptRead(cms, request, credentials, what!, async () => {
      const result = await runOperation(req, plan, params);
      return { body: formatResult(cms, result), tables: cacheTables(req, result) };
    });
  }
  if (operation.operation !== 'query') refuseUnsafeWrite(cms, input, operation, signIn);
  const result = await runOperation(req, plan, params);
  return answer(formatResult(cms, result), 200, req, request);
}

/** A mutation never runs from a GET (a link or an image could send one), and a cookie session's needs the CSRF token. */
function refuseUnsafeWrite(cms: CMS, input: RouteInput, operation: OperationDefinitionNode, signIn: Set<string>): void {
  if (input.request.method !== 'POST')
    throw new APIError(405, 'Mutations need POST.', undefined, { headers: { allow: 'POST' } });
  const fields = operation.selectionSet.selections;
  const onlySignIn = fields.every((s) => s.kind === Kind.FIELD && signIn.has(s.name.value));
  if (!onlySignIn) checkCsrf(cms, input.request, input.credentials);
}

const GRAPHQL_RESPONSE = 'application/graphql-response+json';
const wantsGraphQLResponse = (request: Request) => request.headers.get('accept')?.includes(GRAPHQL_RESPONSE) ?? false;

/**
 * A POSTed query's key is its body as sent: the query, variables and operation name are read from those
 * bytes alone, so equal bodies ask the same, and a hit needs no JSON parse. Two spellings of one query
 * (spaces, key order) are kept apart, which costs a second entry, never a wrong answer.
 */
const postKey = (body: string) => `POST graphql\n${body}`;

/** Requests whose cache lookup was made before routing (and missed). */
const answeredEarly = new WeakSet<Request>();

/**
 * Before routing (src/http/app.ts, through src/http/routes/graphql.ts), as GET reads are: a POSTed query whose answer is kept and current is
 * answered from the cache without routing, parsing or planning. Anything else goes on to the route with
 * its body already read.
 */
export async function answerGraphQLFromCache(cms: CMS, request: Request): Promise<Response | undefined> {
  const text = await readTextBeforeRouting(request);
  if (text === undefined) return undefined;
  const credentials = await credentialsOf(cms, request).catch(() => null);
  // Null when the lookup was made and missed; undefined without credentials (the route answers the refusal).
  const kept = credentials ? ((await answerKeptRead(cms, request, credentials, postKey(text))) ?? null) : undefined;
  if (kept) {
    releaseBody(request);
    return kept;
  }
  passToRoute(request, text);
  if (kept === null) answeredEarly.add(request);
  return undefined;
}

function answer(body: unknown, status: number, req: GraphQLRequest | undefined, request: Request): Response {
  const type = wantsGraphQLResponse(request) ? GRAPHQL_RESPONSE : 'application/json';
  const headers = new Headers({ 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  for (const cookie of req?.headers.getSetCookie() ?? []) headers.append('set-cookie', cookie);
  return new Response(JSON.stringify(body), { status, headers });
}
