/**
 * "Copy to locale" (lazy chunk, opened from the edit view's More actions): the saved values of the document's
 * localized fields in the locale shown are written into another locale, as a draft where the collection has
 * drafts, as Payload's copy to locale does; the edit view then shows the target locale (docs/admin.md).
 */
import { useState } from 'preact/hooks';
import { docs, type CollectionConfig, type Doc } from '../../api.ts';
import { message } from '../../format.ts';
import { dataFields } from '../../form/values.ts';
import { Modal } from '../../ui/modal.tsx';
import { toast } from '../../ui/toasts.tsx';
import { t } from '../../i18n/i18n.ts';

export type CopyToLocaleProps = {
  c: CollectionConfig;
  id: string;
  doc: Doc;
  from: string;
  locales: string[];
  onClose: () => void;
  onCopied: (to: string) => void;
};

export default function CopyToLocale(props: CopyToLocaleProps) {
  const targets = props.locales.filter((l) => l !== props.from);
  const [to, setTo] = useState(targets[0] ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const copy = async () => {
    const data: Doc = {};
    for (const f of dataFields(props.c.fields))
      if (f.localized && f.name && f.name in props.doc) data[f.name] = props.doc[f.name];
    setBusy(true);
    try {
      await docs.update(props.c.slug, props.id, data, { locale: to, draft: Boolean(props.c.drafts) });
      toast(props.c.drafts ? t('copy.doneDraft', { from: props.from, to }) : t('copy.done', { from: props.from, to }));
      props.onCopied(to);
    } catch (e) {
      setError(message(e));
      setBusy(false);
    }
  };
  return (
    <Modal
      title={t('edit.copyToLocale')}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" onClick={props.onClose}>
            {t('ui.cancel')}
          </button>
          <button type="button" class="primary" disabled={busy || !to} onClick={() => void copy()}>
            {busy ? t('copy.copying') : t('copy.copy')}
          </button>
        </>
      }
    >
      <p>
        {t('copy.explainBefore')} <strong>{props.from}</strong>{' '}
        {props.c.drafts ? t('copy.explainAfterDraft') : t('copy.explainAfter')}
      </p>
      <label>
        {t('copy.target')}
        <select value={to} onChange={(e) => setTo(e.currentTarget.value)}>
          {targets.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
