/**
 * What `GET /health` answers (public; admins get more, docs/operations.md "Health"): 503 when the database
 * does not answer; `status: 'degraded'` with `checks` when the file storage cannot be reached or a disk the
 * server writes to is full. Cheap enough for a load balancer to poll.
 */
import pkg from '../../package.json' with { type: 'json' };
import type { CMS } from '../cms.ts';
import { databaseAnswers } from '../db/health.ts';
import { freeBytes } from './free-disk.ts';
import { isFullAdmin } from '../access/key-limits.ts';
import type { OperationContext } from '../operation-context.ts';
import { emailConfigured, lastEmailFailure } from '../email/send-email.ts';
import { countPendingJobs } from '../versions/jobs-store.ts';
import { metricsOf } from '../metrics/registry.ts';
import { countBacklog, countDeliveries, deliveriesTableExists } from '../webhooks/delivery-store.ts';
import { storageAnswers } from '../uploads/storage/storage-health.ts';
import { DEGRADED_LAG_MS, replicaOf, type Replica } from '../replica/running.ts';

/** Below this many free bytes a disk counts as full: the next upload or write will fail. */
const DISK_FULL_BYTES = 1024 * 1024;

/** 'full' when a folder the server writes to (data, local uploads) has (almost) no room left. */
async function diskSpace(cms: CMS): Promise<'ok' | 'full'> {
  const folders = [cms.config.dataDir, cms.config.upload.storage ? null : cms.config.upload.dir].filter(
    (f): f is string => !!f,
  );
  for (const folder of folders) {
    if ((await freeBytes(folder)) < DISK_FULL_BYTES) return 'full';
  }
  return 'ok';
}

function storageKind(cms: CMS): 'local' | 's3' | 'custom' {
  const storage = cms.config.upload.storage as { type?: string } | null | undefined;
  return !storage ? 'local' : storage.type === 's3' ? 's3' : 'custom';
}

async function adminDetails(cms: CMS) {
  const metrics = metricsOf(cms);
  const last = metrics.lastJobRun;
  const deliveries = await deliveriesTableExists(cms.store);
  return {
    uptime: Math.round((cms.clock.now() - metrics.startedAt) / 1000),
    storage: storageKind(cms),
    jobs: {
      lastRunAt: last ? new Date(last.at).toISOString() : null,
      lastError: last?.error ?? null,
      scheduledPending: await countPendingJobs(cms.store),
    },
    email: { configured: emailConfigured(cms), lastFailure: await lastEmailFailure(cms) },
    webhooks: {
      pending: deliveries ? await countBacklog(cms.store) : 0,
      failed: deliveries ? await countDeliveries(cms.store, 'failed') : 0,
    },
  };
}

/**
 * The replica's state (docs/replication.md): public, like the rest of the health answer; no URL. Admins
 * also see the oldest moment a restore reaches (the admin's Backups view shows it).
 */
function replicaFields(replica: Replica, admin: boolean) {
  const lastSnapshotAt = replica.lastSnapshotAt();
  const oldest = replica.oldestRestorableAt();
  return {
    mode: replica.mode,
    lagMs: replica.lagMs(),
    lastTransaction: replica.lastTransaction(),
    lastSnapshotAt: lastSnapshotAt === null ? null : new Date(lastSnapshotAt).toISOString(),
    ...(replica.uploadsOnly ? { uploadsOnly: true } : {}),
    ...(admin ? { oldestRestorable: oldest === null ? null : new Date(oldest).toISOString() } : {}),
  };
}

export type HealthReport = { status: 200 | 503; body: Record<string, unknown> };

export async function healthReport(ctx: OperationContext): Promise<HealthReport> {
  const { cms } = ctx;
  if (!(await databaseAnswers(cms)))
    return { status: 503, body: { status: 'error', version: pkg.version, database: 'error' } };
  const replica = replicaOf(cms.store);
  const checks = {
    storage: await storageAnswers(cms.storage),
    disk: await diskSpace(cms),
    ...(replica ? { replica: replica.lagMs() > DEGRADED_LAG_MS ? ('behind' as const) : ('ok' as const) } : {}),
  };
  const degraded = checks.storage !== 'ok' || checks.disk !== 'ok' || checks.replica === 'behind';
  const admin = isFullAdmin(ctx.user, ctx.scopes);
  return {
    status: 200,
    body: {
      status: degraded ? 'degraded' : 'ok',
      version: pkg.version,
      database: 'ok',
      ...(replica ? { replica: replicaFields(replica, admin) } : {}),
      ...(degraded || admin ? { checks } : {}),
      ...(admin ? await adminDetails(cms) : {}),
    },
  };
}
