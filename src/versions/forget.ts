/** A deleted document takes its versions with it and its scheduled jobs are cancelled (inside the delete's transaction). */
import type { SanitizedCollection } from '../config/types.ts';
import type { CMS } from '../cms.ts';
import { deleteAllVersions } from './store.ts';
import { cancelJobsOf } from '../jobs/jobs-store.ts';
import { isoNow } from '../clock.ts';

export function forgetDocumentHistory(cms: CMS, collection: SanitizedCollection, id: number): void {
  const owner = { entity: collection, parent: id };
  deleteAllVersions(cms, owner);
  cancelJobsOf(cms, owner, isoNow(cms.clock));
}
