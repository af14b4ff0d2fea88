/** `GET /health` (public; admins get more) and `GET /metrics` (admins or the cron secret), docs/operations.md. */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { databaseBytes } from '../../db/health.ts';
import { metricsOf } from '../../metrics/registry.ts';
import { PROMETHEUS_CONTENT_TYPE, renderMetrics } from '../../metrics/prometheus-text.ts';
import { healthReport } from '../../health/health-report.ts';
import { authorizeMetrics } from '../../health/metrics-access.ts';
import { bearerToken } from '../authenticate.ts';
import { methods, type Route } from '../handle.ts';
import { cacheFigures } from '../cached-read.ts';
import { replicaFigures } from '../../health/replica-figures.ts';
import { operatorFigures } from '../../health/operator-figures.ts';

export function healthRoutes(cms: CMS) {
  const health: Route = async ({ ctx }) => {
    const { status, body } = await healthReport(ctx);
    return { status, body, headers: { 'cache-control': 'no-store' } };
  };
  const metrics: Route = async ({ ctx, request }) => {
    authorizeMetrics(ctx, bearerToken(request));
    const uptimeSeconds = (cms.clock.now() - metricsOf(cms).startedAt) / 1000;
    const text = renderMetrics(metricsOf(cms), {
      databaseBytes: await databaseBytes(cms),
      uptimeSeconds,
      cache: cacheFigures(cms),
      replica: replicaFigures(cms),
      operator: await operatorFigures(cms),
    });
    return new Response(text, { headers: { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' } });
  };
  return new RouteList()
    .all('/health', methods(cms, { GET: health }, { csrf: false }))
    .all('/metrics', methods(cms, { GET: metrics }, { csrf: false }));
}
