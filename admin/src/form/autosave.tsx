/**
 * Autosave: while the form differs from what was last stored, the changed fields are saved as the draft
 * a pause after the last keystroke (the collection's `autosave.interval`). It never publishes. A save
 * that cannot reach the server is tried again when the browser is back online or on the next change;
 * meanwhile the typed values sit in the unsaved-edits store as with any dirty form.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Doc, type Field } from '../api.ts';
import type { DocumentFormState } from './document-form.tsx';
import { changedFields } from './values.ts';
import { intlLocale, t } from '../i18n/i18n.ts';

export type AutosaveState = { lastSaved: string | null; status: 'idle' | 'saving' | 'offline' | 'failed' };

export function useAutosave(options: {
  enabled: boolean;
  interval: number;
  fields: Field[];
  form: DocumentFormState;
  save: (data: Doc) => Promise<Doc>;
}): AutosaveState {
  const { enabled, form } = options;
  const [state, setState] = useState<AutosaveState>({ lastSaved: null, status: 'idle' });
  const [retry, setRetry] = useState(0);

  useEffect(() => {
    if (state.status !== 'offline') return;
    const online = () => setRetry((n) => n + 1);
    addEventListener('online', online);
    // Some lost connections never fire 'online' (the server went away, not the network).
    const timer = setInterval(online, Math.max(5_000, options.interval * 4));
    return () => {
      removeEventListener('online', online);
      clearInterval(timer);
    };
  }, [state.status]);

  // The latest form and save for the timer, which is set again for every change of the values without
  // rendering the form for each of them.
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    if (!enabled || form.busy || !form.dirty) return;
    let live = true;
    const run = () => {
      const { form, fields, save } = latest.current;
      const data = changedFields(fields, form.values, form.initial);
      if (Object.keys(data).length === 0) return;
      setState((s) => ({ ...s, status: 'saving' }));
      save(data)
        .then((saved) => {
          form.markSaved(data);
          if (live) form.clearErrors();
          setState({
            lastSaved: typeof saved.updatedAt === 'string' ? saved.updatedAt : new Date().toISOString(),
            status: 'idle',
          });
        })
        .catch((e) => {
          if (e instanceof ApiError && e.status === 0) return setState((s) => ({ ...s, status: 'offline' }));
          setState((s) => ({ ...s, status: 'failed' }));
          form.showError(e);
        });
    };
    let timer = setTimeout(run, options.interval);
    const unsubscribe = form.store.subscribe(() => {
      clearTimeout(timer);
      timer = setTimeout(run, latest.current.interval);
    });
    return () => {
      live = false;
      unsubscribe();
      clearTimeout(timer);
    };
  }, [enabled, form.busy, form.dirty, form.store, retry]);

  return state;
}

/** "Saving…", "Saved at 14:02:11", or why not; announced politely to screen readers. */
export function AutosaveStatus(props: { state: AutosaveState }) {
  const { lastSaved, status } = props.state;
  const text =
    status === 'saving'
      ? t('autosave.saving')
      : status === 'offline'
        ? t('autosave.offline')
        : status === 'failed'
          ? t('autosave.failed')
          : lastSaved
            ? t('autosave.savedAt', { time: new Date(lastSaved).toLocaleTimeString(intlLocale()) })
            : null;
  return (
    <span
      class={`autosave-status muted small${status === 'offline' || status === 'failed' ? ' warn-text' : ''}`}
      role="status"
      aria-live="polite"
      data-testid="autosave-status"
    >
      {text ?? ''}
      {lastSaved && <time dateTime={lastSaved} hidden />}
    </span>
  );
}
