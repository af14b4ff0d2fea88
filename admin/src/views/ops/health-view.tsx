/** Admins: what GET /health tells an admin (docs/operations.md, "Health"). */
import { ops } from '../../ops-api.ts';
import { formatDate } from '../../format.ts';
import { ErrorBox } from '../../ui/error-box.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { useApp } from '../../app-context.ts';
import { contentTopics, useRefreshOnChange } from '../../realtime.ts';
import { t, formatNumber } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';

function duration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : `${m} min ${Math.floor(seconds % 60)} s`;
}

export default function HealthView() {
  const { data: health, error, reload } = useLoad(() => ops.health(), []);
  // Pending jobs and deliveries move with content changes.
  useRefreshOnChange(contentTopics(useApp().config), reload, 400);
  const row = (label: string, value: string) => (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
  return (
    <section>
      <h1 tabIndex={-1}>{t('shell.opHealth')}</h1>
      <ErrorBox error={error} />
      {!health && !error && <Spinner />}
      {health && (
        <section class="panel" aria-label={t('health.details')}>
          <dl class="facts">
            {row(t('health.status'), health.status)}
            {row(t('health.database'), health.database)}
            {row(t('health.version'), health.version)}
            {health.uptime !== undefined && row(t('health.uptime'), duration(health.uptime))}
            {health.storage && row(t('health.storage'), health.storage)}
            {health.jobs &&
              row(
                t('health.jobsLastRun'),
                health.jobs.lastRunAt ? formatDate(health.jobs.lastRunAt) : t('health.notYet'),
              )}
            {health.jobs && row(t('health.jobsLastError'), health.jobs.lastError ?? t('health.none'))}
            {health.jobs && row(t('health.scheduledPending'), formatNumber(health.jobs.scheduledPending))}
            {health.webhooks && row(t('health.webhooksPending'), formatNumber(health.webhooks.pending))}
            {health.webhooks && row(t('health.webhooksFailed'), formatNumber(health.webhooks.failed))}
          </dl>
        </section>
      )}
    </section>
  );
}
