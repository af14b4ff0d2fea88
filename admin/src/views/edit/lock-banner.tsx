/** Who else is editing this document, and the way to take over from them (after a confirmation). */
import type { DocumentLock } from '../../form/document-lock.ts';
import { message } from '../../format.ts';
import { confirmDialog } from '../../ui/confirm-dialog.tsx';
import { toast } from '../../ui/toasts.tsx';
import { t } from '../../i18n/i18n.ts';

const nameOf = (u: { name: string | null; email: string } | null) => (u ? u.name || u.email : t('lock.someoneElse'));

export function LockBanner(props: { lock: DocumentLock; onTakenOver: () => void }) {
  const { state } = props.lock;
  if (state.status === 'other') {
    const who = nameOf(state.holder);
    const takeOver = async () => {
      const ok = await confirmDialog({
        title: t('lock.takeOverTitle'),
        message: t('lock.takeOverMessage', { who }),
        confirm: t('lock.takeOver'),
        danger: true,
      });
      if (!ok) return;
      try {
        await props.lock.takeOver();
        props.onTakenOver();
        toast(t('lock.editingNow'));
      } catch (e) {
        toast(message(e), 'error');
      }
    };
    return (
      <div class="alert warn lock-banner" role="status">
        <p>
          <strong>{t('lock.isEditing', { who })}</strong> {t('lock.readOnly')}
        </p>
        <div class="alert-actions">
          <button type="button" class="primary" onClick={() => void takeOver()}>
            {t('lock.takeOver')}
          </button>
        </div>
      </div>
    );
  }
  if (state.status === 'lost')
    return (
      <div class="alert error lock-banner" role="alert">
        <p>
          {state.elsewhere ? (
            <>
              <strong>{t('lock.openedElsewhere')}</strong> {t('lock.lostElsewhere')}
            </>
          ) : (
            <>
              <strong>{t('lock.tookOver', { who: nameOf(state.holder) })}</strong> {t('lock.lost')}
            </>
          )}
        </p>
      </div>
    );
  return null;
}
