/**
 * The gauges an operator watches beside the counters (docs/operations.md "Metrics"): open realtime
 * streams, scheduled jobs and webhook deliveries still to do, the database pool's use, and the free disk
 * of the data folder. Each is a read of memory, one `statfs`, or a count through an index on `state`.
 */
import type { CMS } from '../cms.ts';
import { freeBytes } from './free-disk.ts';
import { openStreams } from '../realtime/hub.ts';
import { countPendingJobs } from '../versions/jobs-store.ts';
import { countBacklog, deliveriesTableExists } from '../webhooks/delivery-store.ts';

export type OperatorFigures = {
  realtimeStreams: number;
  scheduledPending: number;
  webhookBacklog: number;
  /** PostgreSQL only: SQLite runs in process, on one connection. */
  pool: { inUse: number; max: number } | null;
  /** Null when the data folder's file system cannot be read. */
  dataDiskFreeBytes: number | null;
};

export async function operatorFigures(cms: CMS): Promise<OperatorFigures> {
  const free = await freeBytes(cms.config.dataDir);
  return {
    realtimeStreams: openStreams(cms),
    scheduledPending: await countPendingJobs(cms.store),
    webhookBacklog: (await deliveriesTableExists(cms.store)) ? await countBacklog(cms.store) : 0,
    pool: cms.store.poolUse?.() ?? null,
    dataDiskFreeBytes: Number.isFinite(free) ? free : null,
  };
}
