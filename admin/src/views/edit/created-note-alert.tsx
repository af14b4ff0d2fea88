/** The note a new document's page shows once after its create, with an API key's secret or an invitation link. */
import type { CreatedNote } from '../../form/prefill.ts';
import { SecretRow } from '../../ui/secret-row.tsx';
import { t } from '../../i18n/i18n.ts';

export function CreatedNoteAlert(props: { note: CreatedNote }) {
  const { note } = props;
  return (
    <div class="alert ok" role="status">
      <p>{note.text}</p>
      {note.secret && (
        <>
          <p>{t('edit.copyKeyNow')}</p>
          <SecretRow text={note.secret} label={t('edit.copyKey')} id="new-secret" />
        </>
      )}
      {note.invite && (
        <>
          <p>{t('edit.inviteNote')}</p>
          <SecretRow text={note.invite} label={t('edit.copyInvite')} testId="invite-link" />
        </>
      )}
    </div>
  );
}
