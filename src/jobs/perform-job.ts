/** A due job does its action through the same operations as the REST routes, so it has the same effects and events. */
import type { CMS } from '../cms.ts';
import { createContext } from '../operation-context.ts';
import { update } from '../operations/update.ts';
import { updateGlobal } from '../operations/globals.ts';
import { unpublish } from '../operations/unpublish.ts';
import type { JobRow } from '../versions/jobs-store.ts';

export async function performJob(cms: CMS, job: JobRow): Promise<void> {
  // The runner acts for the system: access was checked when the job was scheduled.
  const ctx = createContext(cms, { overrideAccess: true, via: 'job' });
  const global = job.kind === 'global';
  if (job.action === 'publish') {
    // Publishing publishes the latest draft: a save that sets status published starts from the pending draft.
    const data = { status: 'published' };
    if (global) await updateGlobal(ctx, { slug: job.slug, data, depth: 0 });
    else await update(ctx, { collection: job.slug, id: job.parent, data, depth: 0 });
  } else if (job.action === 'unpublish') {
    await unpublish(ctx, global ? { global: job.slug, depth: 0 } : { collection: job.slug, id: job.parent, depth: 0 });
  } else {
    throw new Error(`Unknown job action "${job.action}".`);
  }
}
