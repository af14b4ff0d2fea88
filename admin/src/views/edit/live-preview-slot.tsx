/**
 * What the edit views load eagerly for live preview: the toggle, the "Preview" button and a slot that
 * imports the pane (views/edit/live-preview.tsx) on first use, so editors of collections without
 * `livePreview.url` never download it.
 */
import { useEffect, useState } from 'preact/hooks';
import { preview, type Doc, type VersionOwner } from '../../api.ts';
import { message } from '../../format.ts';
import { Icon } from '../../ui.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { toast } from '../../ui/toasts.tsx';
import { useFormSelect, type FormStore } from '../../form/form-store.ts';
import { t } from '../../i18n/i18n.ts';

export interface LivePreviewProps {
  owner: VersionOwner;
  /** The form's current values, saved or not: what the site should show. */
  values: Doc;
  locale?: string;
}

type Pane = (props: LivePreviewProps) => preact.JSX.Element;
let loadedPane: Pane | null = null;

/** The pane, given the form's values as they change (it renders for every change; the form does not). */
export function LivePreviewSlot(props: Omit<LivePreviewProps, 'values'> & { store: FormStore }) {
  const values = useFormSelect(props.store, (v) => v);
  const [Pane, setPane] = useState<Pane | null>(() => loadedPane);
  useEffect(() => {
    if (Pane) return;
    import('./live-preview.tsx')
      .then((m) => {
        loadedPane = m.LivePreviewPane;
        setPane(() => m.LivePreviewPane);
      })
      .catch((e) => toast(message(e), 'error'));
  }, []);
  if (Pane) return <Pane owner={props.owner} locale={props.locale} values={values} />;
  return (
    <section class="live-preview panel" aria-label={t('preview.label')}>
      <Spinner />
    </section>
  );
}

const OPEN_KEY = 'cms-live-preview-open';

/** Whether the pane is shown; remembered in this browser, as editors who use it want it every time. */
export function useLivePreviewOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => {
    try {
      return localStorage.getItem(OPEN_KEY) === '1';
    } catch {
      return false;
    }
  });
  const set = (next: boolean) => {
    setOpen(next);
    try {
      localStorage.setItem(OPEN_KEY, next ? '1' : '0');
    } catch {
      // Storage disabled: the choice lasts for this page only.
    }
  };
  return [open, set];
}

/** Header buttons: show or hide the pane, and open the signed preview URL (current draft, no login) in a new tab. */
export function LivePreviewButtons(props: {
  owner: VersionOwner;
  locale?: string;
  open: boolean;
  onToggle: (open: boolean) => void;
}) {
  const openInTab = async () => {
    try {
      const { url } = await preview(props.owner, {}, props.locale);
      window.open(url, '_blank', 'noopener');
    } catch (e) {
      toast(message(e), 'error');
    }
  };
  return (
    <>
      <button type="button" class="ghost" aria-pressed={props.open} onClick={() => props.onToggle(!props.open)}>
        <Icon name="eye" /> {t('preview.label')}
      </button>
      <button type="button" class="ghost" onClick={() => void openInTab()}>
        <Icon name="external" /> {t('preview.openInTab')}
      </button>
    </>
  );
}
