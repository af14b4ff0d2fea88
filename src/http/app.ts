/** The Elysia app: API routes under `routes.api`, the admin under `routes.admin`. Routes stay thin. */
import { Elysia } from 'elysia';
import type { CMS } from '../cms.ts';
import { collectionRoutes } from './routes/collections.ts';
import { globalRoutes } from './routes/globals.ts';
import { userRoutes } from './routes/users.ts';
import { passwordResetRoutes } from './routes/password-reset.ts';
import { twoFactorRoutes } from './routes/two-factor.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { webhookDeliveryRoutes } from './routes/webhook-deliveries.ts';
import { auditLogRoutes } from './routes/audit-log.ts';
import { answerMCPFromCache, mcpRoutes } from './routes/mcp.ts';
import { versionRoutes } from './routes/versions.ts';
import { releaseRoutes } from './routes/releases.ts';
import { lockRoutes } from './routes/locks.ts';
import { jobRoutes } from './routes/jobs.ts';
import { healthRoutes } from './routes/health.ts';
import { backupRoutes } from './routes/backups.ts';
import { mediaRoutes } from './routes/media.ts';
import { openAPIRoutes } from './routes/openapi.ts';
import { answerGraphQLFromCache, graphQLRoutes } from './routes/graphql.ts';
import { realtimeRoutes } from './routes/realtime.ts';
import { searchRoutes } from './routes/search.ts';
import { errorResponse, notFoundResponse } from './errors.ts';
import { badRequest } from '../errors.ts';
import { preflight } from './cors.ts';
import { answerFromCache } from './cached-read.ts';
import { pathAndQuery } from './observe-request.ts';
import { adminConfigRoutes } from './routes/admin-config.ts';
import { adminConditionRoutes } from './routes/admin-conditions.ts';
import { serveAdminAsset, setAdminRuntimeConfig } from './admin-assets.ts';
import { publicFiles } from './public-files.ts';
import { RouteList } from './routes/route-list.ts';
import { createRouter, type RouterEntry } from './router.ts';

/** Every route the app answers, with its full path: the API's under `routes.api`, the admin's under `routes.admin`. */
export function appRoutes(cms: CMS): RouterEntry[] {
  const api = new RouteList()
    .use(adminConfigRoutes(cms))
    .use(adminConditionRoutes(cms))
    .use(userRoutes(cms))
    .use(passwordResetRoutes(cms))
    .use(twoFactorRoutes(cms))
    .use(sessionRoutes(cms))
    .use(mediaRoutes(cms))
    .use(globalRoutes(cms))
    .use(webhookDeliveryRoutes(cms))
    .use(auditLogRoutes(cms))
    .use(mcpRoutes(cms))
    .use(releaseRoutes(cms))
    .use(versionRoutes(cms))
    .use(lockRoutes(cms))
    .use(jobRoutes(cms))
    .use(healthRoutes(cms))
    .use(backupRoutes(cms))
    .use(openAPIRoutes(cms))
    .use(graphQLRoutes(cms))
    .use(realtimeRoutes(cms))
    .use(searchRoutes(cms))
    .use(collectionRoutes(cms));
  const adminPrefix = cms.config.routes.admin;
  const admin = ({ request }: { request: Request }) => {
    const pathname = new URL(request.url).pathname.slice(adminPrefix.length) || '/';
    return serveAdminAsset(pathname, request) ?? notFoundResponse();
  };
  return [
    { method: 'GET', path: adminPrefix || '/', handler: admin },
    { method: 'GET', path: `${adminPrefix}/*`, handler: admin },
    ...api.entries.map((entry) => ({ ...entry, path: cms.config.routes.api + entry.path })),
  ];
}

/**
 * What is answered before routing, or undefined: preflights, the site's files, and kept answers that are
 * still current (docs/caching.md); other verbs go on without waiting for a promise.
 */
export function answerBeforeRouting(
  cms: CMS,
): (request: Request) => Response | Promise<Response | undefined> | undefined {
  const graphQLPath = `${cms.config.routes.api}/graphql`;
  const mcpPath = `${cms.config.routes.api}/mcp`;
  const site = publicFiles(cms.config.publicDir, cms.config.routes);
  return (request) => {
    if (request.method === 'OPTIONS') return preflight(cms.config, request);
    const file = site(request);
    if (file) return file;
    if (request.method === 'GET') return answerFromCache(cms, request);
    if (request.method !== 'POST') return;
    const path = pathAndQuery(request.url);
    if (path === graphQLPath) return answerGraphQLFromCache(cms, request);
    if (path === mcpPath) return answerMCPFromCache(cms, request);
  };
}

export function createApp(cms: CMS) {
  setAdminRuntimeConfig({ apiPrefix: cms.config.routes.api, adminPrefix: cms.config.routes.admin });
  // Every route found by one router of the app's own, under one Elysia route (src/http/router.ts).
  const route = createRouter(appRoutes(cms));
  const app = new Elysia().onError(({ code, error }) => {
    if (code === 'NOT_FOUND') return notFoundResponse();
    if (code === 'PARSE') return errorResponse(cms, badRequest('The request body could not be read.'));
    return errorResponse(cms, error);
  });
  return app.all('/*', ({ request }) => route(request));
}
