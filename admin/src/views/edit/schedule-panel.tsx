/**
 * Publish or unpublish later: a date and time in the editor's own time zone (named, with the UTC time
 * beside it), the document's pending jobs with Cancel. Uses `…/schedule` (docs/drafts-and-versions.md); the job runner publishes the latest draft when the time comes.
 */
import { useState } from 'preact/hooks';
import { schedule, type ScheduledJob, type VersionOwner } from '../../api.ts';
import { fromLocalInput } from '../../form/fields.tsx';
import { message } from '../../format.ts';
import { Icon } from '../../ui.tsx';
import { useLoad } from '../../use-load.ts';
import { toast } from '../../ui/toasts.tsx';
import { intlLocale, t } from '../../i18n/i18n.ts';

let zone: string | undefined;
/** The browser's time zone (asked once: asking builds a formatter, and the panel renders with every keystroke). */
export const timeZone = () => (zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone) || t('schedule.localTime');

/** "Mar 1, 2026, 10:30 AM (Europe/Berlin) · 09:30 UTC" */
export function zonedTime(iso: string): { local: string; utc: string } {
  const d = new Date(iso);
  return {
    local: `${d.toLocaleString(intlLocale(), { dateStyle: 'medium', timeStyle: 'short' })} (${timeZone()})`,
    utc: `${d.toLocaleString(intlLocale(), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`,
  };
}

/** A date and time typed in the editor's time zone (named), the UTC time shown under it. */
export function WhenInput(props: { id: string; value: string; onInput: (value: string) => void }) {
  const iso = fromLocalInput(props.value);
  return (
    <>
      <label class="field-label" for={props.id}>
        {t('schedule.when')} <span class="muted small">({timeZone()})</span>
      </label>
      <input
        id={props.id}
        type="datetime-local"
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        aria-describedby={`${props.id}-utc`}
      />
      <p id={`${props.id}-utc`} class="muted small" aria-live="polite">
        {iso ? `= ${zonedTime(iso).utc}` : t('schedule.zones')}
      </p>
    </>
  );
}

/** A job's action in words: the job list shows `publish` / `unpublish`. */
export const actionText = (action: string) =>
  action === 'publish' ? t('schedule.publish') : action === 'unpublish' ? t('schedule.unpublish') : action;

export function SchedulePanel(props: {
  owner: VersionOwner;
  reloadKey: unknown;
  onChange?: () => void;
  /** Someone else holds the lock: what is scheduled is shown, nothing can be added or cancelled. */
  readOnly?: boolean;
}) {
  const [action, setAction] = useState<'publish' | 'unpublish'>('publish');
  const [when, setWhen] = useState('');
  const [busy, setBusy] = useState(false);
  const ownerKey = JSON.stringify(props.owner);
  const iso = fromLocalInput(when);

  const loaded = useLoad(() => schedule.list(props.owner), [ownerKey, props.reloadKey]);
  const jobs = loaded.data?.docs ?? null;
  const { error, setError } = loaded;

  const add = async () => {
    if (!iso) return setError(t('schedule.choose'));
    setBusy(true);
    try {
      await schedule.add(props.owner, action, iso);
      setWhen('');
      setError(null);
      toast(action === 'publish' ? t('schedule.publishScheduled') : t('schedule.unpublishScheduled'));
      loaded.reload();
      props.onChange?.();
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
    }
  };

  const cancel = async (job: ScheduledJob) => {
    try {
      await schedule.cancel(props.owner, job.id);
      toast(t('schedule.cancelled'));
      loaded.reload();
      props.onChange?.();
    } catch (e) {
      toast(message(e), 'error');
    }
  };

  return (
    <section class="panel" aria-labelledby="schedule-title">
      <h2 id="schedule-title" class="panel-title">
        <Icon name="clock" /> {t('schedule.title')}
      </h2>
      {jobs && jobs.length > 0 && (
        <ol class="jobs" aria-label={t('schedule.pending')}>
          {jobs.map((j) => {
            const when = zonedTime(j.at);
            return (
              <li key={String(j.id)}>
                <div>
                  <span class={`badge ${j.action === 'publish' ? 'ok' : 'draft'}`}>{actionText(j.action)}</span>
                  <div class="small">{when.local}</div>
                  <div class="muted small">{when.utc}</div>
                </div>
                <button
                  type="button"
                  class="small"
                  disabled={props.readOnly}
                  onClick={() => void cancel(j)}
                  aria-label={t('schedule.cancelJob', { action: actionText(j.action), at: when.local })}
                >
                  {t('ui.cancel')}
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <div class="schedule-form">
        <label class="field-label" for="schedule-action">
          {t('schedule.action')}
        </label>
        <select
          id="schedule-action"
          value={action}
          onChange={(e) => setAction(e.currentTarget.value as 'publish' | 'unpublish')}
        >
          <option value="publish">{t('drafts.publish')}</option>
          <option value="unpublish">{t('drafts.unpublish')}</option>
        </select>
        <WhenInput id="schedule-at" value={when} onInput={setWhen} />
        {error && <p class="field-error">{error}</p>}
        <button type="button" disabled={busy || !iso || props.readOnly} onClick={() => void add()}>
          {t('schedule.schedule')}
        </button>
      </div>
    </section>
  );
}
