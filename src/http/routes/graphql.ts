/**
 * `GET|POST <api>/graphql` (docs/graphql.md); absent when the config turns GraphQL off. graphql-js, the
 * schema and the rest of src/graphql load on the first GraphQL request, not at start: most servers answer
 * their first requests over REST (docs/benchmarks.md "Start-up and memory").
 */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import { methods, type RouteInput } from '../handle.ts';

const load = () => import('./graphql-serve.ts');

export function graphQLRoutes(cms: CMS) {
  if (!cms.config.graphQL) return new Elysia();
  const serve = async (input: RouteInput) => (await load()).serveGraphQL(cms, input);
  return new Elysia().all('/graphql', methods(cms, { GET: serve, POST: serve }, { csrf: false }));
}

/** A POSTed query whose answer is kept and current, answered before routing (src/http/app.ts). */
export async function answerGraphQLFromCache(cms: CMS, request: Request): Promise<Response | undefined> {
  // A method-override read takes its own path through the route (src/http/method-override.ts).
  if (
    !cms.config.graphQL ||
    request.headers.has('x-http-method-override') ||
    request.headers.has('x-payload-http-method-override')
  )
    return undefined;
  return (await load()).answerGraphQLFromCache(cms, request);
}
