/**
 * `GET|POST <api>/graphql` (docs/graphql.md); absent when the config turns GraphQL off. graphql-js, the
 * schema and the rest of src/graphql load on the first GraphQL request, not at start: most servers answer
 * their first requests over REST (docs/benchmarks.md "Start-up and memory").
 */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { methods, type RouteInput } from '../handle.ts';

type Serve = typeof import('./graphql-serve.ts');
let loaded: Serve | undefined;
// Once loaded, kept: an `import()` of a loaded module still costs a module lookup and a promise on every request.
const load = async (): Promise<Serve> => (loaded ??= await import('./graphql-serve.ts'));

export function graphQLRoutes(cms: CMS) {
  if (!cms.config.graphQL) return new RouteList();
  const serve = async (input: RouteInput) => (loaded ?? (await load())).serveGraphQL(cms, input);
  return new RouteList().all('/graphql', methods(cms, { GET: serve, POST: serve }, { csrf: false }));
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
  return (loaded ?? (await load())).answerGraphQLFromCache(cms, request);
}
