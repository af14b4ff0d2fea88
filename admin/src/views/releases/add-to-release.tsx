/**
 * "Add to release…" from a document's or global's menu: a dialog listing the open releases and the action.
 * The item pins the current draft; a document already in the chosen release is pinned anew.
 */
import { useState } from 'preact/hooks';
import { message } from '../../format.ts';
import { releases, type ReleaseAction, type ReleaseTarget } from './release-api.ts';
import { Link } from '../../router.tsx';
import { Modal } from '../../ui/modal.tsx';
import { ErrorBox } from '../../ui/error-box.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { toast } from '../../ui/toasts.tsx';
import { t } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';

/** The open releases a dialog offers, newest first. */
const OPEN_LIMIT = 100;

const sameTarget = (target: ReleaseTarget) => (item: { collection?: string; global?: string; document?: unknown }) =>
  'global' in target
    ? item.global === target.global
    : item.collection === target.collection && String(item.document) === String(target.id);

export default function AddToReleaseDialog(props: { target: ReleaseTarget; onClose: () => void }) {
  const loaded = useLoad(() => releases.list({ limit: OPEN_LIMIT, where: { status: { equals: 'open' } } }), []);
  const [chosen, setChosen] = useState('');
  const [action, setAction] = useState<ReleaseAction>('publish');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const open = loaded.data?.docs ?? null;
  const release = open?.find((r) => String(r.id) === chosen) ?? open?.[0];
  const already = release?.items.some(sameTarget(props.target));

  const add = async () => {
    if (!release) return;
    setBusy(true);
    try {
      await releases.addItem(release.id, props.target, action);
      toast(t('releases.added', { title: release.title }));
      props.onClose();
    } catch (e) {
      setError(message(e));
      setBusy(false);
    }
  };

  return (
    <Modal
      title={t('releases.addTitle')}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" class="ghost" onClick={props.onClose}>
            {t('ui.cancel')}
          </button>
          <button type="submit" form="add-to-release" class="primary" disabled={busy || !release}>
            {t('releases.add')}
          </button>
        </>
      }
    >
      <ErrorBox error={loaded.error ?? error} />
      {!open && !loaded.error && <Spinner />}
      {open && open.length === 0 && (
        <p>
          {t('releases.noOpen')} <Link to="/releases">{t('releases.title')}</Link>
        </p>
      )}
      {open && open.length > 0 && (
        <form
          id="add-to-release"
          class="schedule-form"
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <label class="field-label" for="add-release">
            {t('releases.release')}
          </label>
          <select id="add-release" value={String(release?.id ?? '')} onChange={(e) => setChosen(e.currentTarget.value)}>
            {open.map((r) => (
              <option key={String(r.id)} value={String(r.id)}>
                {r.title}
              </option>
            ))}
          </select>
          <label class="field-label" for="add-action">
            {t('releases.action')}
          </label>
          <select id="add-action" value={action} onChange={(e) => setAction(e.currentTarget.value as ReleaseAction)}>
            <option value="publish">{t('releases.publish')}</option>
            <option value="unpublish">{t('releases.unpublish')}</option>
          </select>
          {already && <p class="muted small">{t('releases.alreadyIn')}</p>}
        </form>
      )}
    </Modal>
  );
}
