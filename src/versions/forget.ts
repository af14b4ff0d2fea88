/** A deleted document takes its versions with it and its scheduled jobs are cancelled (inside the delete's transaction). */
import type { SanitizedCollection } from '../config/types.ts';
import type { CMS } from '../cms.ts';
import type { Queryable } from '../db/store.ts';
import { deleteAllVersions } from './store.ts';
import { cancelJobsOf } from './jobs-store.ts';
import { isoNow } from '../clock.ts';

export async function forgetDocumentHistory(
  cms: CMS,
  tx: Queryable,
  collection: SanitizedCollection,
  id: number,
): Promise<void> {
  const owner = { entity: collection, parent: id };
  await deleteAllVersions(tx, owner);
  await cancelJobsOf(tx, owner, isoNow(cms.clock));
}
