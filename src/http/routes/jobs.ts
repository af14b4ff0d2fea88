/**
 * `GET or POST /jobs/run` (docs/webhooks.md "Jobs"): runs due jobs and webhook retries now. Allowed with the
 * cron secret (`Authorization: Bearer <secret>`, either verb) or an admin. A cookie session must use POST,
 * which carries the CSRF check: a GET is what a link or an image on another site can make a browser send.
 * 401 without valid credentials (a wrong secret included), 403 for a user who may not.
 * `GET /jobs/scheduled`: pending scheduled jobs across the site, for admins (src/jobs/scheduled-jobs.ts).
 */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import { forbidden, unauthorized } from '../../errors.ts';
import { isCronSecret } from '../../jobs/cron-secret.ts';
import { runJobs } from '../../jobs/run-jobs.ts';
import { listScheduledJobs } from '../../jobs/scheduled-jobs.ts';
import { readOptions } from '../../query/request-options.ts';
import { isFullAdmin } from '../../access/key-limits.ts';
import { bearerToken } from '../authenticate.ts';
import { methods, type Route } from '../handle.ts';
import { bodyReceived } from '../long-requests.ts';

export function jobRoutes(cms: CMS) {
  const run: Route = async ({ request, credentials }) => {
    const bearer = bearerToken(request);
    if (!(bearer && isCronSecret(cms, bearer))) {
      const user = credentials.user;
      if (!isFullAdmin(credentials.user, credentials.scopes))
        throw user
          ? forbidden('The cron secret or an admin is required.')
          : unauthorized('The cron secret or an admin session is required.');
      if (credentials.via === 'cookie' && request.method !== 'POST')
        throw forbidden('A cookie session runs jobs with POST and the x-csrf-token header.');
    }
    bodyReceived(request); // it reads no body; a run waits for the one in progress and runs every due job
    return { body: await runJobs(cms) };
  };
  return new Elysia().all('/jobs/run', methods(cms, { GET: run, POST: run })).all(
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
