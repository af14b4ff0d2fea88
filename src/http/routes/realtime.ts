/** `GET /realtime?topics=…`: the Server-Sent Events stream of changes (docs/realtime.md). */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import { readOptions } from '../../query/request-options.ts';
import { methods } from '../handle.ts';
import { keepOpen } from '../long-requests.ts';
import { badRequest } from '../../errors.ts';
import { parseTopics } from '../../realtime/topics.ts';
import { hubOf } from '../../realtime/hub.ts';
import { viewerKey } from '../../realtime/subscriber-view.ts';
import { findSession } from '../../auth/sessions.ts';

function lastEventIdOf(request: Request, query: Record<string, unknown>): number | null {
  const raw =
    request.headers.get('last-event-id') ?? (typeof query.lastEventId === 'string' ? query.lastEventId : null);
  if (raw === null || raw === '') return null;
  if (!/^\d{1,15}$/.test(raw.trim())) throw badRequest('Last-Event-ID must be the id of an event.', 'Last-Event-ID');
  return Number(raw);
}

export function realtimeRoutes(cms: CMS) {
  return new Elysia().all(
    '/realtime',
    methods(
      cms,
      {
        GET: async ({ ctx, query, request, credentials }) => {
          const topics = parseTopics(query.topics, cms.config);
          const { depth, draft, preview } = readOptions({ ...query, limit: undefined, page: undefined }, cms.config);
          const options = { depth, draft: Boolean(draft), ...(preview ? { preview } : {}) };
          const lastEventId = lastEventIdOf(request, query);
          // A stream reads once per event for as long as it lives: the per-request document budget is not its bound.
          delete ctx.documents;
          const { token } = credentials;
          // A stream lives on after its request: it ends when its session does (docs/realtime.md).
          const sessionAlive =
            token && credentials.via !== 'api-key' ? async () => (await findSession(cms, token)) !== null : undefined;
          const response = await hubOf(cms).subscribe(
            { ctx, options, key: viewerKey(ctx, options, credentials.scopes), sessionAlive },
            topics,
            lastEventId,
          );
          keepOpen(request);
          return response;
        },
      },
      { csrf: false },
    ),
  );
}
