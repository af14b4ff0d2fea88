/**
 * A document's status as lists and edit views show it: live or draft, and "changes pending" beside a
 * published document with a newer draft. Part of the first load (lists show it), with its words.
 */
import { t } from '../../i18n/i18n.ts';

/** The live status, plus "changes pending" when a published document has a newer draft. */
export function StatusBadges(props: { draft: unknown; live: unknown }) {
  const status = props.live ?? props.draft;
  return (
    <>
      <span class={`badge ${status === 'published' ? 'ok' : 'draft'}`}>
        {status === 'published'
          ? t('drafts.published')
          : status === 'draft' || status == null
            ? t('drafts.draft')
            : String(status)}
      </span>
      {status === 'published' && props.draft === 'draft' && <span class="badge draft">{t('drafts.pending')}</span>}
    </>
  );
}
