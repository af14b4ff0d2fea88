/** The Elysia app: API routes under `routes.api`, the admin under `routes.admin`. Routes stay thin. */
import { Elysia } from 'elysia';
import type { CMS } from '../cms.ts';
import { collectionRoutes } from './routes/collections.ts';
import { globalRoutes } from './routes/globals.ts';
import { userRoutes } from './routes/users.ts';
import { webhookDeliveryRoutes } from './routes/webhook-deliveries.ts';
import { errorResponse, notFoundResponse } from './errors.ts';
import { preflight } from './cors.ts';

export function createApp(cms: CMS) {
  const api = new Elysia({ prefix: cms.config.routes.api })
    .use(userRoutes(cms))
    .use(globalRoutes(cms))
    .use(webhookDeliveryRoutes(cms))
    .use(collectionRoutes(cms));

  return new Elysia()
    .onRequest(({ request }) => {
      if (request.method === 'OPTIONS') return preflight(cms.config, request);
    })
    .onError(({ code, error }) => {
      if (code === 'NOT_FOUND') return notFoundResponse();
      if (code === 'PARSE') return errorResponse(cms, Object.assign(new Error('bad body'), { status: 400 }));
      return errorResponse(cms, error);
    })
    .use(api);
}
