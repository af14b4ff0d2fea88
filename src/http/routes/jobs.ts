/**
 * `GET or POST /jobs/run` (CONTRACT §5, §6): runs due jobs and webhook retries now. Allowed with the cron
 * secret (`Authorization: Bearer <secret>`) or an admin session; 401 with no credentials, 403 otherwise.
 */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import { forbidden, unauthorized } from '../../errors.ts';
import { isCronSecret } from '../../jobs/cron-secret.ts';
import { runJobs } from '../../jobs/run-jobs.ts';
import { bearerToken } from '../authenticate.ts';
import { methods, type Route } from '../handle.ts';

export function jobRoutes(cms: CMS) {
  const run: Route = async ({ request, credentials }) => {
    const bearer = bearerToken(request);
    if (!(bearer && isCronSecret(cms, bearer))) {
      const user = credentials.user;
      const admin = user?.role === 'admin' && (!credentials.scopes || credentials.scopes.includes('*'));
      if (!admin) throw user || bearer ? forbidden('The cron secret or an admin is required.') : unauthorized();
    }
    return { body: await runJobs(cms) };
  };
  return new Elysia().all('/jobs/run', methods(cms, { GET: run, POST: run }));
}
