/** REST for webhook deliveries (docs/webhooks.md): the admin's list, and retrying one. */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { readOptions } from '../../query/request-options.ts';
import { listDeliveries, retryDelivery } from '../../webhooks/delivery-operations.ts';
import { methods } from '../handle.ts';

export function webhookDeliveryRoutes(cms: CMS) {
  // Without webhooks these paths do not exist (404 like any unknown path).
  if (cms.config.webhooks.length === 0) return new RouteList();
  return new RouteList()
    .all(
      '/webhook-deliveries',
      methods(cms, {
        GET: async ({ ctx, query }) => {
          const { limit, page } = readOptions(query, cms.config);
          return { body: await listDeliveries(ctx, { limit, page, state: query.state }) };
        },
      }),
    )
    .all(
      '/webhook-deliveries/:id/retry',
      methods(cms, {
        POST: async ({ ctx, params }) => ({
          body: { doc: await retryDelivery(ctx, params.id), message: 'Delivery queued for another attempt.' },
        }),
      }),
    );
}
