/**
 * The Prometheus text exposition format (version 0.0.4) of an instance's metrics. Names follow
 * Prometheus conventions: `_total` counters, `_seconds` and `_bytes` units, `le` buckets cumulative.
 */
import { LATENCY_BUCKETS, type Metrics } from './registry.ts';
import type { OperatorFigures } from '../health/operator-figures.ts';

/** The response cache's figures (src/cache/response-cache.ts); null when the config turns it off. */
export type CacheFigures = {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
  evictions: number;
} | null;

/** The running replica's figures (src/replica/running.ts); null when none runs in this process. */
export type ReplicaFigures = {
  lagMs: number;
  lastTransaction: number;
  /** Epoch ms; null until the first snapshot. */
  oldestRestorableAt: number | null;
  failures: number;
  puts: number;
} | null;

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

type Labels = Record<string, string>;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function sample(name: string, labels: Labels, value: number): string {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return `${name}${pairs.length ? `{${pairs.join(',')}}` : ''} ${Number.isFinite(value) ? value : value > 0 ? '+Inf' : '-Inf'}`;
}

function family(name: string, type: 'counter' | 'gauge' | 'histogram', help: string, samples: string[]): string {
  return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${samples.join('\n')}${samples.length ? '\n' : ''}`;
}

export function renderMetrics(
  metrics: Metrics,
  gauges: {
    databaseBytes: number;
    uptimeSeconds: number;
    cache: CacheFigures;
    replica?: ReplicaFigures;
    operator?: OperatorFigures;
  },
): string {
  const requests = [...metrics.requests].map(([key, count]) => {
    const [method, route, status] = key.split(' ') as [string, string, string];
    return sample('cms_http_requests_total', { method, route, status }, count);
  });
  const h = metrics.latency;
  let cumulative = 0;
  const latency = LATENCY_BUCKETS.map((le, i) =>
    sample('cms_http_request_duration_seconds_bucket', { le: String(le) }, (cumulative += h.buckets[i]!)),
  );
  latency.push(
    sample('cms_http_request_duration_seconds_bucket', { le: '+Inf' }, h.count),
    sample('cms_http_request_duration_seconds_sum', {}, h.sum),
    sample('cms_http_request_duration_seconds_count', {}, h.count),
  );
  const outcomes = Object.entries(metrics.webhookAttempts).map(([outcome, n]) =>
    sample('cms_webhook_attempts_total', { outcome }, n),
  );
  return [
    family(
      'cms_http_requests_total',
      'counter',
      'HTTP requests answered, by method, route pattern and status.',
      requests,
    ),
    family(
      'cms_http_request_duration_seconds',
      'histogram',
      'Time to answer HTTP requests (until the headers are sent).',
      latency,
    ),
    family('cms_job_runs_total', 'counter', 'Runs of the job runner (loop, /jobs/run, Local API), by outcome.', [
      sample('cms_job_runs_total', { outcome: 'ok' }, metrics.jobRuns.ok),
      sample('cms_job_runs_total', { outcome: 'error' }, metrics.jobRuns.error),
    ]),
    family('cms_scheduled_jobs_total', 'counter', 'Scheduled publish/unpublish jobs performed, by outcome.', [
      sample('cms_scheduled_jobs_total', { outcome: 'ran' }, metrics.jobs.ran),
      sample('cms_scheduled_jobs_total', { outcome: 'failed' }, metrics.jobs.failed),
    ]),
    family(
      'cms_webhook_attempts_total',
      'counter',
      'Webhook delivery attempts, by outcome (sent, retry, failed, interrupted).',
      outcomes,
    ),
    family('cms_database_size_bytes', 'gauge', 'Size of the database, as its engine counts it.', [
      sample('cms_database_size_bytes', {}, gauges.databaseBytes),
    ]),
    family('cms_uptime_seconds', 'gauge', 'Seconds since the instance started.', [
      sample('cms_uptime_seconds', {}, gauges.uptimeSeconds),
    ]),
    family('cms_faults_total', 'counter', 'Requests answered 503 or 507 for a fault of the machine, by kind.', [
      ...Object.entries(metrics.faults).map(([kind, n]) =>
        sample('cms_faults_total', { kind: kind.replaceAll(' ', '_') }, n),
      ),
    ]),
    ...(gauges.operator ? operatorFamilies(gauges.operator) : []),
    ...(gauges.cache ? cacheFamilies(gauges.cache) : []),
    ...(gauges.replica ? replicaFamilies(gauges.replica) : []),
  ].join('');
}

function operatorFamilies(figures: OperatorFigures): string[] {
  const gauge = (name: string, help: string, value: number) => family(name, 'gauge', help, [sample(name, {}, value)]);
  return [
    gauge('cms_realtime_streams', 'Realtime event streams open on this instance.', figures.realtimeStreams),
    gauge(
      'cms_scheduled_jobs_pending',
      'Scheduled publish/unpublish jobs not performed yet.',
      figures.scheduledPending,
    ),
    gauge(
      'cms_webhook_deliveries_pending',
      'Webhook deliveries not done yet (pending or being sent).',
      figures.webhookBacklog,
    ),
    ...(figures.pool
      ? [
          gauge(
            'cms_database_connections_in_use',
            'Pool connections running a statement or transaction now.',
            figures.pool.inUse,
          ),
          gauge('cms_database_connections_max', 'The size of the database pool (databasePool).', figures.pool.max),
        ]
      : []),
    ...(figures.dataDiskFreeBytes === null
      ? []
      : [
          gauge(
            'cms_data_disk_free_bytes',
            "Free bytes of the data folder's file system for this process.",
            figures.dataDiskFreeBytes,
          ),
        ]),
  ];
}

function replicaFamilies(replica: NonNullable<ReplicaFigures>): string[] {
  const oldest = replica.oldestRestorableAt;
  return [
    family('cms_replica_lag_seconds', 'gauge', 'Age of the oldest transaction not on the replica yet (0: none).', [
      sample('cms_replica_lag_seconds', {}, replica.lagMs / 1000),
    ]),
    family('cms_replica_last_transaction', 'gauge', 'Number of the newest transaction on the replica.', [
      sample('cms_replica_last_transaction', {}, replica.lastTransaction),
    ]),
    family(
      'cms_replica_oldest_restorable_timestamp_seconds',
      'gauge',
      'The oldest moment a restore from the replica reaches (Unix time), as of the last snapshot.',
      oldest === null ? [] : [sample('cms_replica_oldest_restorable_timestamp_seconds', {}, oldest / 1000)],
    ),
    family('cms_replica_failures_total', 'counter', 'Shipping rounds that could not reach the replica.', [
      sample('cms_replica_failures_total', {}, replica.failures),
    ]),
    family(
      'cms_replica_objects_written_total',
      'counter',
      'Objects this process wrote to the replica (one PUT each).',
      [sample('cms_replica_objects_written_total', {}, replica.puts)],
    ),
  ];
}

function cacheFamilies(cache: NonNullable<CacheFigures>): string[] {
  return [
    family('cms_response_cache_entries', 'gauge', 'Answers kept in the response cache.', [
      sample('cms_response_cache_entries', {}, cache.entries),
    ]),
    family('cms_response_cache_bytes', 'gauge', 'Memory the kept answers take, as the cache counts it.', [
      sample('cms_response_cache_bytes', {}, cache.bytes),
    ]),
    family(
      'cms_response_cache_max_bytes',
      'gauge',
      'The configured bound of cms_response_cache_bytes (cache.maxSize).',
      [sample('cms_response_cache_max_bytes', {}, cache.maxBytes)],
    ),
    family(
      'cms_response_cache_lookups_total',
      'counter',
      'Cacheable reads, by result: hit (served as kept) or miss (computed).',
      [
        sample('cms_response_cache_lookups_total', { result: 'hit' }, cache.hits),
        sample('cms_response_cache_lookups_total', { result: 'miss' }, cache.misses),
      ],
    ),
    family('cms_response_cache_evictions_total', 'counter', 'Answers dropped to stay within cache.maxSize.', [
      sample('cms_response_cache_evictions_total', {}, cache.evictions),
    ]),
  ];
}
