/** Admins: webhook deliveries still waiting or given up (delivered ones are deleted), filtered by state, with retry. */
import { ops, type Delivery, type DeliveryState } from '../../ops-api.ts';
import { formatDate, message } from '../../format.ts';
import { updateQuery, type Location } from '../../router.tsx';
import { toast } from '../../ui/toasts.tsx';
import { useApp } from '../../app-context.ts';
import { contentTopics, useRefreshOnChange } from '../../realtime.ts';
import { t } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';
import { OpsTable } from './ops-table.tsx';

const STATES: DeliveryState[] = ['pending', 'sending', 'failed'];
const stateLabel = (s: DeliveryState) =>
  s === 'pending' ? t('webhooks.pending') : s === 'sending' ? t('webhooks.sending') : t('webhooks.failed');

export default function WebhookDeliveriesView(props: { location: Location }) {
  const q = props.location.query;
  const setQuery = (changes: Record<string, string | null>) => updateQuery(q, changes);
  const state = (STATES as string[]).includes(q.get('state') ?? '') ? (q.get('state') as DeliveryState) : undefined;
  const page = Math.max(1, Number(q.get('page')) || 1);
  const { data: list, error, reload } = useLoad(() => ops.deliveries(page, state), [state, page]);
  // Content changes queue deliveries: show them as they come.
  useRefreshOnChange(contentTopics(useApp().config), reload, 400);

  const retry = async (d: Delivery) => {
    try {
      await ops.retryDelivery(d.id);
      toast(t('webhooks.queued'));
      reload();
    } catch (e) {
      toast(message(e), 'error');
    }
  };

  return (
    <section>
      <h1 tabIndex={-1}>{t('webhooks.title')}</h1>
      <p class="muted">{t('webhooks.intro')}</p>
      <div class="toolbar">
        <label>
          {t('webhooks.state')}{' '}
          <select value={state ?? ''} onChange={(e) => setQuery({ state: e.currentTarget.value || null, page: null })}>
            <option value="">{t('webhooks.all')}</option>
            {STATES.map((s) => (
              <option value={s} key={s}>
                {stateLabel(s)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <OpsTable
        list={list}
        error={error}
        empty={state ? t('webhooks.noneInState', { state: stateLabel(state) }) : t('webhooks.none')}
        headers={[
          t('webhooks.event'),
          t('webhooks.target'),
          t('webhooks.state'),
          t('webhooks.attempts'),
          t('webhooks.lastError'),
          t('webhooks.nextAttempt'),
        ]}
        actions
        rowKey={(d) => d.id}
        cells={(d) => (
          <>
            <td>
              {d.event} {d.collection ? `${d.collection} #${d.docId}` : d.global}
              <div class="muted small">{formatDate(d.createdAt)}</div>
            </td>
            <td class="truncate">{d.url}</td>
            <td>
              <span class={`badge ${d.state === 'failed' ? 'danger' : ''}`}>{stateLabel(d.state)}</span>
            </td>
            <td>{d.attempts}</td>
            <td>{d.lastError ?? '—'}</td>
            <td>{d.nextAttemptAt ? formatDate(d.nextAttemptAt) : '—'}</td>
            <td>
              {d.state !== 'sending' && (
                <button
                  type="button"
                  class="ghost"
                  onClick={() => void retry(d)}
                  aria-label={t('webhooks.retryLabel', {
                    what: `${d.event} ${d.collection ?? d.global ?? ''} ${d.docId ?? ''}`.trim(),
                  })}
                >
                  {t('webhooks.retry')}
                </button>
              )}
            </td>
          </>
        )}
        setPage={(n) => setQuery({ page: String(n) })}
      />
    </section>
  );
}
