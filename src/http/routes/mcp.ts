/**
 * `POST /mcp`: the Model Context Protocol for AI assistants (docs/mcp.md). Bearer credentials only (an API
 * key or a session token; a cookie alone is not enough, so a web page cannot drive it), a bound on the
 * messages per caller (each message of a batch counts), then the MCP server in src/mcp runs as that caller.
 * The MCP server and its SDK load on the first call that passes the checks, not at start (docs/mcp.md).
 * A plain `find` call is kept in the response cache as a REST list is, under the caller and its arguments,
 * and a kept one is answered before routing.
 */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import type { SanitizedCollection } from '../../config/types.ts';
import { APIError, unauthorized } from '../../errors.ts';
import { passToRoute, readText, readTextBeforeRouting, releaseBody } from '../body.ts';
import { takeMessages } from '../../mcp/request-bound.ts';
import { methods, requestContext, withCors } from '../handle.ts';
import { credentialsOf, type Credentials } from '../authenticate.ts';
import { keepBytes, keptBytes } from '../cached-read.ts';
import { methodOverride } from '../method-override.ts';

type Serve = typeof import('../../mcp/serve-mcp.ts');
let loaded: Serve | undefined;

/** Who the bound counts: the API key, else the session's user; null for a caller MCP refuses. */
function callerOf(credentials: Credentials): string | null {
  if (!credentials.user || (credentials.via !== 'api-key' && credentials.via !== 'bearer')) return null;
  return credentials.apiKey !== undefined ? `key:${credentials.apiKey}` : `user:${credentials.user.id}`;
}

export function mcpRoutes(cms: CMS) {
  const bound = cms.config.mcp;
  if (!bound) return new RouteList();
  return new RouteList().all(
    '/mcp',
    methods(
      cms,
      {
        POST: async ({ request, credentials }) => {
          const caller = callerOf(credentials);
          if (!caller) throw unauthorized('Send an API key (or a session token) as Authorization: Bearer <key>.');
          const refuseAfter = (wait: number) => {
            if (wait)
              throw new APIError(429, 'Too many requests for this key; try again later.', undefined, {
                headers: { 'retry-after': String(wait) },
              });
          };
          // A caller with no room left is refused before its body is read; then every message counts.
          refuseAfter(takeMessages(cms, caller, bound.requestsPerMinute, 1, false));
          // Once loaded, kept: an `import()` of a loaded module still costs a lookup and a promise per request.
          const mcp = (loaded ??= await import('../../mcp/serve-mcp.ts'));
          const text = await readText(request, mcp.bodyLimit(cms.config.upload.maxFileSize));
          const body = mcp.parseMessages(text, request);
          if (body instanceof Response) return body;
          refuseAfter(takeMessages(cms, caller, bound.requestsPerMinute, body.count));
          const ctx = requestContext(cms, request, credentials, { via: 'mcp' });
          const find = findCall(cms, request, body.messages);
          if (!find) return mcp.serveMCP(ctx, request, body.messages);
          const result = await keepBytes({ cms, ctx, request, credentials }, find.collection, find.what, async () => {
            const { json, failed } = await mcp.callResult(ctx, 'find', find.args);
            return { text: json, keep: !failed };
          });
          return mcp.callAnswer(find.id, result);
        },
      },
      { csrf: false },
    ),
  );
}

/**
 * A plain `find` call (src/mcp/plain-call.ts) of a collection: its id, arguments, and the key its result is
 * kept under (beside the caller's). The arguments as parsed are the whole of what the call reads, so they
 * are the key; a spelling of other arguments is another key, never another answer.
 */
function findCall(cms: CMS, request: Request, messages: unknown) {
  const plain = loaded!.plainCall(request, messages);
  if (plain?.method !== 'tools/call' || plain.name !== 'find') return undefined;
  const slug = plain.args.collection;
  const collection: SanitizedCollection | undefined =
    typeof slug === 'string' ? cms.config.collectionsBySlug.get(slug) : undefined;
  if (!collection) return undefined;
  return { id: plain.id, args: plain.args, collection, what: `MCP find\n${JSON.stringify(plain.args)}` };
}

/**
 * Before routing (src/http/app.ts), as GET reads are: a plain `find` whose result is kept and current is
 * answered at once, counted against the caller's bound like any call. Anything else goes on to the route
 * with its body already read. Nothing is kept before the first call loads the MCP server.
 */
export async function answerMCPFromCache(cms: CMS, request: Request): Promise<Response | undefined> {
  const bound = cms.config.mcp;
  if (!bound || !loaded || methodOverride(request) !== null) return undefined;
  const credentials = await credentialsOf(cms, request).catch(() => null);
  const caller = credentials && callerOf(credentials);
  if (!caller || takeMessages(cms, caller, bound.requestsPerMinute, 1, false)) return undefined;
  const text = await readTextBeforeRouting(request, loaded.bodyLimit(cms.config.upload.maxFileSize));
  if (text === undefined) return undefined;
  let messages: unknown;
  try {
    messages = JSON.parse(text);
  } catch {
    messages = undefined;
  }
  const find = findCall(cms, request, messages);
  const kept = find && (await keptBytes(cms, request, credentials, find.what));
  if (kept && takeMessages(cms, caller, bound.requestsPerMinute, 1) === 0) {
    releaseBody(request);
    return withCors(cms, request, loaded.callAnswerOf(find.id, kept));
  }
  passToRoute(request, text);
  return undefined;
}
