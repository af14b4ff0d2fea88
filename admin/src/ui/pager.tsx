import { t } from '../i18n/i18n.ts';

/** Previous / Page n of m / Next under a list answer (the list shape of docs/documents.md); nothing for one page. */
export function Pager(props: {
  list: { page: number; totalPages: number; hasPrevPage: boolean; hasNextPage: boolean };
  setPage: (page: number) => void;
}) {
  const { list } = props;
  if (list.totalPages <= 1) return null;
  return (
    <nav class="pager" aria-label={t('list.pages')}>
      <button type="button" disabled={!list.hasPrevPage} onClick={() => props.setPage(list.page - 1)}>
        {t('list.previous')}
      </button>
      <span class="muted">{t('list.pageOf', { page: list.page, pages: list.totalPages })}</span>
      <button type="button" disabled={!list.hasNextPage} onClick={() => props.setPage(list.page + 1)}>
        {t('list.next')}
      </button>
    </nav>
  );
}
