/**
 * `POST /mcp`: the Model Context Protocol for AI assistants (docs/mcp.md). Bearer credentials only (an API
 * key or a session token; a cookie alone is not enough, so a web page cannot drive it), a bound on the
 * messages per caller (each message of a batch counts), then the MCP server in src/mcp runs as that caller.
 * The MCP server and its SDK load on the first call that passes the checks, not at start (docs/mcp.md).
 */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import { APIError, unauthorized } from '../../errors.ts';
import { readText } from '../body.ts';
import { takeMessages } from '../../mcp/request-bound.ts';
import { methods, requestContext } from '../handle.ts';

type Serve = typeof import('../../mcp/serve-mcp.ts');
let loaded: Serve | undefined;

export function mcpRoutes(cms: CMS) {
  const bound = cms.config.mcp;
  if (!bound) return new Elysia();
  return new Elysia().all(
    '/mcp',
    methods(
      cms,
      {
        POST: async ({ request, credentials }) => {
          if (!credentials.user || (credentials.via !== 'api-key' && credentials.via !== 'bearer')) {
            throw unauthorized('Send an API key (or a session token) as Authorization: Bearer <key>.');
          }
          const caller = credentials.apiKey !== undefined ? `key:${credentials.apiKey}` : `user:${credentials.user.id}`;
          const refuseAfter = (wait: number) => {
            if (wait)
              throw new APIError(429, 'Too many requests for this key; try again later.', undefined, {
                headers: { 'retry-after': String(wait) },
              });
          };
          // A caller with no room left is refused before its body is read; then every message counts.
          refuseAfter(takeMessages(cms, caller, bound.requestsPerMinute, 1, false));
          // Once loaded, kept: an `import()` of a loaded module still costs a lookup and a promise per request.
          const { bodyLimit, parseMessages, serveMCP } = (loaded ??= await import('../../mcp/serve-mcp.ts'));
          const text = await readText(request, bodyLimit(cms.config.upload.maxFileSize));
          const body = parseMessages(text, request);
          if (body instanceof Response) return body;
          refuseAfter(takeMessages(cms, caller, bound.requestsPerMinute, body.count));
          return serveMCP(requestContext(cms, request, credentials, { via: 'mcp' }), request, body.messages);
        },
      },
      { csrf: false },
    ),
  );
}
