/** Admins: webhook deliveries still waiting or given up (delivered ones are deleted), filtered by state, with retry. */
import { useEffect, useState } from 'preact/hooks';
import { ops, type Delivery, type DeliveryState } from '../../ops-api.ts';
import { formatDate, message } from '../../format.ts';
import { updateQuery, type Location } from '../../router.tsx';
import { ErrorBox } from '../../ui/error-box.tsx';
import { Pager } from '../../ui/pager.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { toast } from '../../ui/toasts.tsx';
import type { ListResult } from '../../api.ts';
import { useApp } from '../../app-context.ts';
import { contentTopics, useRefreshOnChange } from '../../realtime.ts';
import { t } from '../../i18n/i18n.ts';

const STATES: DeliveryState[] = ['pending', 'sending', 'failed'];
const stateLabel = (s: DeliveryState) =>
  s === 'pending' ? t('webhooks.pending') : s === 'sending' ? t('webhooks.sending') : t('webhooks.failed');

export default function WebhookDeliveriesView(props: { location: Location }) {
  const q = props.location.query;
  const setQuery = (changes: Record<string, string | null>) => updateQuery(q, changes);
  const state = (STATES as string[]).includes(q.get('state') ?? '') ? (q.get('state') as DeliveryState) : undefined;
  const page = Math.max(1, Number(q.get('page')) || 1);
  const [list, setList] = useState<ListResult<Delivery> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  // Content changes queue deliveries: show them as they come.
  useRefreshOnChange(contentTopics(useApp().config), () => setReload((n) => n + 1), 400);

  useEffect(() => {
    let live = true;
    setError(null);
    ops
      .deliveries(page, state)
      .then((r) => live && setList(r))
      .catch((e) => live && setError(message(e)));
    return () => {
      live = false;
    };
  }, [state, page, reload]);

  const retry = async (d: Delivery) => {
    try {
      await ops.retryDelivery(d.id);
      toast(t('webhooks.queued'));
      setReload((n) => n + 1);
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
      <ErrorBox error={error} />
      {!list && !error && <Spinner />}
      {list && list.docs.length === 0 && (
        <p class="muted">{state ? t('webhooks.noneInState', { state: stateLabel(state) }) : t('webhooks.none')}</p>
      )}
      {list && list.docs.length > 0 && (
        <div class="table-wrap">
          <table class="ops-table">
            <thead>
              <tr>
                <th>{t('webhooks.event')}</th>
                <th>{t('webhooks.target')}</th>
                <th>{t('webhooks.state')}</th>
                <th>{t('webhooks.attempts')}</th>
                <th>{t('webhooks.lastError')}</th>
                <th>{t('webhooks.nextAttempt')}</th>
                <th>
                  <span class="visually-hidden">{t('ops.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.docs.map((d) => (
                <tr key={d.id}>
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
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && <Pager list={list} setPage={(n) => setQuery({ page: String(n) })} />}
    </section>
  );
}
