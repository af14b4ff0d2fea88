/**
 * `GET or POST /jobs/run` (docs/webhooks.md "Jobs"): runs due jobs and webhook retries now, for the cron
 * secret (`Authorization: Bearer <secret>`, either verb) or an admin (src/jobs/authorize-run.ts).
 * `GET /jobs/scheduled`: pending scheduled jobs across the site, for admins (src/jobs/scheduled-jobs.ts).
 */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { authorizeJobRun } from '../../jobs/authorize-run.ts';
import { runJobs } from '../../jobs/run-jobs.ts';
import { listScheduledJobs } from '../../jobs/scheduled-jobs.ts';
import { readOptions } from '../../query/request-options.ts';
import { bearerToken } from '../authenticate.ts';
import { methods, type Route } from '../handle.ts';
import { bodyReceived } from '../long-requests.ts';

export function jobRoutes(cms: CMS) {
  const run: Route = async ({ ctx, request, credentials }) => {
    authorizeJobRun(ctx, {
      bearer: bearerToken(request),
      cookieRead: credentials.via === 'cookie' && request.method !== 'POST',
    });
    bodyReceived(request); // it reads no body; a run waits for the one in progress and runs every due job
    return { body: await runJobs(cms) };
  };
  return new RouteList().all('/jobs/run', methods(cms, { GET: run, POST: run })).all(
    '/jobs/scheduled',
    methods(cms, {
      GET: async ({ ctx, query }) => {
        const { limit, page } = readOptions(query, cms.config);
        return {
          body: await listScheduledJobs(ctx, {
            limit,
            page,
            collection: query.collection,
            global: query.global,
            parent: query.parent,
          }),
        };
      },
    }),
  );
}
