/**
 * When a release goes live by itself: a date and time in the editor's time zone (UTC beside it) while it is
 * open, or the time it is due and Unschedule while it is scheduled. The job loop publishes it then.
 */
import { useState } from 'preact/hooks';
import { fromLocalInput } from '../../form/fields.tsx';
import type { Release } from './release-api.ts';
import { t } from '../../i18n/i18n.ts';
import { WhenInput, zonedTime } from '../edit/schedule-panel.tsx';

export function ReleaseSchedule(props: {
  release: Release;
  busy: boolean;
  onSchedule: (at: string) => Promise<void>;
  onUnschedule: () => Promise<void>;
}) {
  const [when, setWhen] = useState('');
  const iso = fromLocalInput(when);
  const { release } = props;
  if (release.status === 'scheduled' && release.publishAt) {
    const due = zonedTime(release.publishAt);
    return (
      <section class="panel release-schedule" aria-labelledby="release-schedule-title">
        <h2 id="release-schedule-title" class="panel-title">
          {t('releases.schedule')}
        </h2>
        <p>
          {t('releases.dueAt', { at: due.local })} <span class="muted small">{due.utc}</span>
        </p>
        <button type="button" disabled={props.busy} onClick={() => void props.onUnschedule()}>
          {t('releases.unschedule')}
        </button>
      </section>
    );
  }
  return (
    <section class="panel release-schedule" aria-labelledby="release-schedule-title">
      <h2 id="release-schedule-title" class="panel-title">
        {t('releases.schedule')}
      </h2>
      <form
        class="schedule-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (iso) void props.onSchedule(iso).then(() => setWhen(''));
        }}
      >
        <WhenInput id="release-at" value={when} onInput={setWhen} />
        <button type="submit" disabled={props.busy || !iso}>
          {t('releases.scheduleIt')}
        </button>
      </form>
    </section>
  );
}
