import { t } from '../../i18n/i18n.ts';

/** A version's status as a badge says it (`published`, `draft`). */
export const statusText = (status: unknown) =>
  status === 'published'
    ? t('drafts.published')
    : status === 'draft' || status == null
      ? t('drafts.draft')
      : String(status);
