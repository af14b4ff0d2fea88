/** `GET /realtime?topics=…`: the Server-Sent Events stream of changes (docs/realtime.md). */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { localeOptions, readOptions } from '../../query/request-options.ts';
import { methods, requestContext } from '../handle.ts';
import { keepOpen } from '../long-requests.ts';
import { APIError, unauthorized } from '../../errors.ts';
import type { OperationContext } from '../../operation-context.ts';
import { parseTopics } from '../../realtime/topics.ts';
import { hubOf } from '../../realtime/hub.ts';
import { parseLastEventId } from '../../realtime/last-event-id.ts';
import { ownerOf } from '../../realtime/stream-limits.ts';
import { viewerKey, type ReadOptions, type Viewer } from '../../realtime/subscriber-view.ts';
import { authenticate, type Credentials } from '../authenticate.ts';

type Opened = { cms: CMS; request: Request; query: Record<string, unknown>; options: ReadOptions };

/**
 * The stream's viewer for `credentials`, and how to look them up again while it lives: they must still
 * name the same user (a logout, a removed session or key, a deactivated user end the stream); what they
 * give now (a new role, new scopes) is what later events are read with.
 */
function viewerOf(opened: Opened, credentials: Credentials, ctx: OperationContext): Viewer {
  const { cms, request, query, options } = opened;
  // A stream reads once per event for as long as it lives: the per-request document budget is not its bound.
  delete ctx.documents;
  const user = credentials.user;
  const viewer: Viewer = {
    ctx,
    options,
    key: viewerKey(ctx, options, credentials.scopes),
    owner: ownerOf(user, ctx.ip),
    expiresAt: user ? (credentials.expiresAt ?? null) : null,
  };
  if (!user) return viewer;
  const id = credentials.via === 'api-key' ? `key:${credentials.apiKey}` : `session:${credentials.sessionId}`;
  viewer.recheck = async (shared) => {
    let now: Credentials;
    try {
      now = await shared(id, () => authenticate(cms, request));
    } catch (error) {
      if (error instanceof APIError && error.status < 500) return null;
      throw error;
    }
    if (!now.user || now.user.id !== user.id || now.twoFactorSetupRequired) return null;
    return viewerOf(opened, now, requestContext(cms, request, now, localeOptions(query, cms.config)));
  };
  return viewer;
}

export function realtimeRoutes(cms: CMS) {
  return new RouteList().all(
    '/realtime',
    methods(
      cms,
      {
        GET: async ({ ctx, query, request, credentials }) => {
          const topics = parseTopics(query.topics, cms.config);
          const { depth, draft, preview } = readOptions({ ...query, limit: undefined, page: undefined }, cms.config);
          const options = { depth, draft: Boolean(draft), ...(preview ? { preview } : {}) };
          const last = parseLastEventId(
            request.headers.get('last-event-id') ?? (typeof query.lastEventId === 'string' ? query.lastEventId : null),
          );
          // The reconnect of a stream that ended with its credentials goes on only with credentials that hold.
          if (last?.ended && !credentials.user)
            throw unauthorized('The sign-in this stream was opened with has ended: sign in again.');
          const viewer = viewerOf({ cms, request, query, options }, credentials, ctx);
          const response = await hubOf(cms).subscribe(viewer, topics, last?.id ?? null);
          keepOpen(request);
          return response;
        },
      },
      { csrf: false },
    ),
  );
}
