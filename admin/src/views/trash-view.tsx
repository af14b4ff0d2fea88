/**
 * A collection's trash (docs/trash.md), a lazy chunk: the trashed documents, newest first, each restored
 * (PATCH `{ deletedAt: null }` with `trash=true`) or deleted for good (DELETE with `trash=true`), and
 * "Empty trash", one bulk DELETE of everything trashed. Every removal asks first.
 */
import { useState } from 'preact/hooks';
import { api, queryString, type CollectionConfig, type ListResult } from '../api.ts';
import { docTitle, formatDate, labelParams, message, pluralLabel } from '../format.ts';
import { forgetChoices } from '../form/choice-labels.ts';
import { Link, type Location } from '../router.tsx';
import { confirmDialog } from '../ui/confirm-dialog.tsx';
import { ErrorBox } from '../ui/error-box.tsx';
import { Icon } from '../ui.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { useLoad } from '../use-load.ts';
import { toast } from '../ui/toasts.tsx';
import { useRefreshOnChange } from '../realtime.ts';
import { t, tn } from '../i18n/i18n.ts';

const TRASHED = { deletedAt: { exists: true } };

export default function TrashView(props: { collection: CollectionConfig; location: Location }) {
  const c = props.collection;
  const path = `/${encodeURIComponent(c.slug)}`;
  const one = (id: unknown) => `${path}/${encodeURIComponent(String(id))}?trash=true`;
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState(false);
  const { data, error, setError, reload } = useLoad(
    () =>
      api<ListResult>(
        'GET',
        `${path}${queryString({ trash: 'true', where: TRASHED, sort: '-deletedAt', limit: 20, page, depth: 0 })}`,
      ),
    [c.slug, page],
  );
  useRefreshOnChange([c.slug], reload, 150);

  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      if (c.builtIn === 'media') forgetChoices(c.slug);
      toast(done);
      reload();
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
    }
  };
  const restore = (id: unknown, title: string) =>
    run(() => api('PATCH', one(id), { deletedAt: null }), t('trash.restored', { title }));
  const removeForGood = async (id: unknown, title: string) => {
    const ok = await confirmDialog({
      title: t('trash.forGoodTitle'),
      message: t('trash.forGoodMessage', { title }),
      confirm: t('trash.deleteForGood'),
      danger: true,
    });
    if (ok) await run(() => api('DELETE', one(id)), t('trash.deletedForGood', { title }));
  };
  const empty = async () => {
    const n = data?.totalDocs ?? 0;
    const ok = await confirmDialog({
      title: t('trash.emptyTitle'),
      message: tn('trash.emptyMessage', n),
      confirm: t('trash.empty'),
      danger: true,
    });
    if (ok)
      await run(
        () => api('DELETE', `${path}${queryString({ trash: 'true', where: TRASHED, depth: 0 })}`),
        t('trash.emptied'),
      );
  };

  return (
    <section class="trash-view">
      <div class="page-head">
        <div>
          <h1 tabIndex={-1}>{t('trash.title', { label: pluralLabel(c) })}</h1>
          {data && <span class="muted">{tn('trash.count', data.totalDocs)}</span>}
        </div>
        <div class="actions">
          <Link to={`/collections/${c.slug}`} class="button">
            {t('trash.back', labelParams(pluralLabel(c)))}
          </Link>
          <button type="button" class="danger" disabled={busy || !data?.totalDocs} onClick={empty}>
            <Icon name="trash" /> {t('trash.empty')}
          </button>
        </div>
      </div>
      <ErrorBox error={error} />
      {!data ? (
        <Spinner />
      ) : data.docs.length === 0 ? (
        <div class="empty">
          <p>{t('trash.isEmpty')}</p>
        </div>
      ) : (
        <>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">
                    {c.admin?.useAsTitle && c.admin.useAsTitle !== 'id' ? t('trash.titleColumn') : 'ID'}
                  </th>
                  <th scope="col">{t('trash.deleted')}</th>
                  <th scope="col" class="actions-cell" aria-label={t('ops.actions')} />
                </tr>
              </thead>
              <tbody>
                {data.docs.map((d) => {
                  const title = docTitle(c, d);
                  return (
                    <tr key={String(d.id)}>
                      <td class="title-cell">{title}</td>
                      <td class="muted nowrap">{formatDate(d.deletedAt)}</td>
                      <td class="actions-cell nowrap">
                        <button
                          type="button"
                          disabled={busy}
                          aria-label={t('trash.restoreNamed', { title })}
                          onClick={() => restore(d.id, title)}
                        >
                          {t('trash.restore')}
                        </button>{' '}
                        <button
                          type="button"
                          class="danger"
                          disabled={busy}
                          aria-label={t('trash.deleteNamed', { title })}
                          onClick={() => removeForGood(d.id, title)}
                        >
                          {t('trash.deleteForGood')}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {data.totalPages > 1 && (
            <nav class="pager" aria-label={t('list.pages')}>
              <span class="spacer" />
              <button type="button" disabled={!data.hasPrevPage} onClick={() => setPage(page - 1)}>
                {t('list.previous')}
              </button>
              <span class="muted">{t('list.pageOf', { page: data.page, pages: data.totalPages })}</span>
              <button type="button" disabled={!data.hasNextPage} onClick={() => setPage(page + 1)}>
                {t('list.next')}
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
