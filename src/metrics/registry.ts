/**
 * What an instance counts for `GET /metrics` and the admin's `GET /health` (docs/operations.md), kept in
 * memory per instance: requests by route and status, one latency histogram, job runs and
 * webhook attempts by outcome, and the job loop's last run. Counters start at zero with the process,
 * as Prometheus expects. Recording is a few Map lookups: it runs on every request.
 */
import type { CMS } from '../cms.ts';
import type { FaultKind } from '../faults.ts';

/** Upper bounds in seconds; a request slower than the last lands in +Inf only. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

export type Histogram = { buckets: number[]; sum: number; count: number };
export type WebhookOutcome = 'sent' | 'retry' | 'failed' | 'interrupted';

export type Metrics = {
  startedAt: number;
  /** `method route status` → count. */
  requests: Map<string, number>;
  /** All requests together: per-route series would multiply the bucket lines by the number of routes. */
  latency: Histogram;
  jobRuns: { ok: number; error: number };
  jobs: { ran: number; failed: number };
  webhookAttempts: Record<WebhookOutcome, number>;
  lastJobRun: { at: number; error: string | null } | null;
  /** Requests answered 503 or 507 for a fault of the machine (src/faults.ts), by its kind. */
  faults: Record<FaultKind, number>;
};

const byInstance = new WeakMap<CMS, Metrics>();

export function metricsOf(cms: CMS): Metrics {
  let metrics = byInstance.get(cms);
  if (!metrics) {
    metrics = {
      startedAt: cms.clock.now(),
      requests: new Map(),
      latency: { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 },
      jobRuns: { ok: 0, error: 0 },
      jobs: { ran: 0, failed: 0 },
      webhookAttempts: { sent: 0, retry: 0, failed: 0, interrupted: 0 },
      lastJobRun: null,
      faults: { 'disk full': 0, 'database unreachable': 0, 'database busy': 0, 'file storage unreachable': 0 },
    };
    byInstance.set(cms, metrics);
  }
  return metrics;
}

export function countRequest(cms: CMS, method: string, route: string, status: number, seconds: number): void {
  const metrics = metricsOf(cms);
  const key = `${method} ${route} ${status}`;
  metrics.requests.set(key, (metrics.requests.get(key) ?? 0) + 1);
  const histogram = metrics.latency;
  // Stored per bucket (not cumulative) so recording touches one slot; the text format adds them up.
  const slot = LATENCY_BUCKETS.findIndex((le) => seconds <= le);
  if (slot >= 0) histogram.buckets[slot]!++;
  histogram.sum += seconds;
  histogram.count++;
}

export function countJobRun(cms: CMS, outcome: { jobs: { ran: number; failed: number } } | { error: unknown }): void {
  const metrics = metricsOf(cms);
  if ('error' in outcome) {
    metrics.jobRuns.error++;
    const error = outcome.error;
    metrics.lastJobRun = { at: cms.clock.now(), error: error instanceof Error ? error.message : String(error) };
    return;
  }
  metrics.jobRuns.ok++;
  metrics.jobs.ran += outcome.jobs.ran;
  metrics.jobs.failed += outcome.jobs.failed;
  metrics.lastJobRun = { at: cms.clock.now(), error: null };
}

export function countWebhookAttempt(cms: CMS, outcome: WebhookOutcome): void {
  metricsOf(cms).webhookAttempts[outcome]++;
}

export function countFault(cms: CMS, kind: FaultKind): void {
  metricsOf(cms).faults[kind]++;
}
