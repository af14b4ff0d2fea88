/**
 * The job loop's part (docs/releases.md): every scheduled release whose `publishAt` has passed is published,
 * acting for the system (access was checked when it was scheduled). One that cannot be published becomes
 * `failed` with its errors and nothing of it published; it can be changed and scheduled again. The loop's
 * first run after start-up publishes the releases that fell due while the server was down.
 */
import type { CMS } from '../../cms.ts';
import { APIError } from '../../errors.ts';
import { isoNow } from '../../clock.ts';
import { claimDueRelease, updateRelease } from '../../releases/store.ts';
import { createContext } from '../../operation-context.ts';
import { publishRelease } from './publish-release.ts';

export async function publishDueReleases(cms: CMS): Promise<{ ran: number; failed: number }> {
  const counts = { ran: 0, failed: 0 };
  if (!cms.config.releases) return counts;
  const ctx = createContext(cms, { overrideAccess: true, via: 'job' });
  for (
    let row = await claimDueRelease(cms.store, cms.clock.now());
    row;
    row = await claimDueRelease(cms.store, cms.clock.now())
  ) {
    try {
      await publishRelease(ctx, row.id);
      counts.ran++;
    } catch (error) {
      const errors =
        error instanceof APIError && error.errors?.length ? error.errors : [{ message: (error as Error).message }];
      await updateRelease(cms.store, row.id, {
        status: 'failed',
        errors: JSON.stringify(errors),
        lockedUntil: null,
        updatedAt: isoNow(cms.clock),
      });
      counts.failed++;
    }
  }
  return counts;
}
