/** Admins: what GET /health tells an admin (docs/operations.md, "Health"). */
import { useEffect, useState } from 'preact/hooks'
import { ops, type Health } from '../ops-api.ts'
import { formatDate, message } from '../format.ts'
import { ErrorBox, Spinner } from '../ui.tsx'
import { useApp } from '../app-context.ts'
import { contentTopics, useRefreshOnChange } from '../realtime.ts'

function duration(seconds: number): string {
  const d = Math.floor(seconds / 86400)
  const h = Math.floor((seconds % 86400) / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  return d ? `${d} d ${h} h` : h ? `${h} h ${m} min` : `${m} min ${Math.floor(seconds % 60)} s`
}

export default function HealthView() {
  const [health, setHealth] = useState<Health | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [reload, setReload] = useState(0)
  // Pending jobs and deliveries move with content changes.
  useRefreshOnChange(contentTopics(useApp().config), () => setReload((n) => n + 1), 400)
  useEffect(() => {
    ops.health().then(setHealth).catch((e) => setError(message(e)))
  }, [reload])
  const row = (label: string, value: string) => (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  )
  return (
    <section>
      <h1 tabIndex={-1}>Health</h1>
      <ErrorBox error={error} />
      {!health && !error && <Spinner />}
      {health && (
        <section class="panel" aria-label="Health details">
          <dl class="facts">
            {row('Status', health.status)}
            {row('Database', health.database)}
            {row('Version', health.version)}
            {health.uptime !== undefined && row('Uptime', duration(health.uptime))}
            {health.storage && row('File storage', health.storage)}
            {health.jobs && row('Job loop last run', health.jobs.lastRunAt ? formatDate(health.jobs.lastRunAt) : 'Not yet')}
            {health.jobs && row('Job loop last error', health.jobs.lastError ?? 'None')}
            {health.jobs && row('Scheduled jobs pending', String(health.jobs.scheduledPending))}
            {health.webhooks && row('Webhook deliveries pending', String(health.webhooks.pending))}
            {health.webhooks && row('Webhook deliveries failed', String(health.webhooks.failed))}
          </dl>
        </section>
      )}
    </section>
  )
}
