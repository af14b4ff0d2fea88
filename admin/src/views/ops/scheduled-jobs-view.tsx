/** Admins: every pending scheduled publish / unpublish across the site, soonest first, each cancellable. */
import { useEffect, useState } from 'preact/hooks';
import { docs, schedule, type Doc, type ListResult, type ScheduledJob } from '../../api.ts';
import { findCollection, useApp } from '../../app-context.ts';
import { docTitle, exactTime, formatDate, globalLabel, message, singularLabel } from '../../format.ts';
import { Link, updateQuery, type Location } from '../../router.tsx';
import { confirmDialog } from '../../ui/confirm-dialog.tsx';
import { ErrorBox } from '../../ui/error-box.tsx';
import { Pager } from '../../ui/pager.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { toast } from '../../ui/toasts.tsx';
import { contentTopics, useRefreshOnChange } from '../../realtime.ts';
import { t } from '../../i18n/i18n.ts';

const PAGE_SIZE = 20;
const actionLabel = (action: string) => (action === 'publish' ? t('schedule.publish') : t('schedule.unpublish'));

/** The scheduled documents' titles: one read per collection on the page (pending drafts, as the editor shows them). */
async function titlesOf(
  config: ReturnType<typeof useApp>['config'],
  jobs: ScheduledJob[],
): Promise<Map<string, string>> {
  const bySlug = new Map<string, Set<string>>();
  for (const j of jobs)
    if (j.collection && j.parent != null)
      (bySlug.get(j.collection) ?? bySlug.set(j.collection, new Set()).get(j.collection)!).add(String(j.parent));
  const titles = new Map<string, string>();
  await Promise.all(
    [...bySlug].map(async ([slug, ids]) => {
      const c = findCollection(config, slug);
      const r = await docs
        .list(slug, { where: { id: { in: [...ids].join(',') } }, limit: ids.size, draft: c?.drafts })
        .catch(() => null);
      for (const d of r?.docs ?? ([] as Doc[])) titles.set(`${slug}:${d.id}`, docTitle(c, d));
    }),
  );
  return titles;
}

export default function ScheduledJobsView(props: { location: Location }) {
  const { config } = useApp();
  const q = props.location.query;
  const page = Math.max(1, Number(q.get('page')) || 1);
  const [list, setList] = useState<ListResult<ScheduledJob> | null>(null);
  const [titles, setTitles] = useState<Map<string, string>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  // A publish by the job loop (or anyone) takes its job off the list.
  useRefreshOnChange(contentTopics(config), () => setReload((n) => n + 1), 400);

  useEffect(() => {
    let live = true;
    setError(null);
    schedule
      .pending({ page, limit: PAGE_SIZE })
      .then(async (r) => {
        const found = await titlesOf(config, r.docs);
        if (live) setList(r), setTitles(found);
      })
      .catch((e) => live && setError(message(e)));
    return () => {
      live = false;
    };
  }, [page, reload]);

  const target = (j: ScheduledJob) => {
    if (j.global) {
      const g = config.globals.find((x) => x.slug === j.global);
      return {
        to: `/globals/${encodeURIComponent(j.global)}`,
        title: g ? globalLabel(g) : j.global,
        kind: t('dashboard.global'),
      };
    }
    const c = findCollection(config, j.collection);
    return {
      to: `/collections/${encodeURIComponent(j.collection!)}/${encodeURIComponent(String(j.parent))}`,
      title: titles.get(`${j.collection}:${j.parent}`) ?? `#${j.parent}`,
      kind: c ? singularLabel(c) : j.collection!,
    };
  };

  const cancel = async (j: ScheduledJob) => {
    const { title } = target(j);
    const params = { title, at: formatDate(j.at) };
    const ok = await confirmDialog({
      title: t('scheduled.cancelTitle'),
      message: j.action === 'publish' ? t('scheduled.cancelPublish', params) : t('scheduled.cancelUnpublish', params),
      confirm: t('scheduled.cancelIt'),
    });
    if (!ok) return;
    try {
      await schedule.cancel(j.global ? { global: j.global } : { collection: j.collection!, id: j.parent! }, j.id);
      toast(t('scheduled.cancelled'));
      setReload((n) => n + 1);
    } catch (e) {
      toast(message(e), 'error');
    }
  };

  return (
    <section>
      <h1 tabIndex={-1}>{t('scheduled.title')}</h1>
      <p class="muted">{t('scheduled.intro')}</p>
      <ErrorBox error={error} />
      {!list && !error && <Spinner />}
      {list && list.docs.length === 0 && <p class="muted">{t('scheduled.none')}</p>}
      {list && list.docs.length > 0 && (
        <div class="table-wrap">
          <table class="ops-table">
            <thead>
              <tr>
                <th>{t('scheduled.when')}</th>
                <th>{t('scheduled.document')}</th>
                <th>
                  <span class="visually-hidden">{t('ops.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.docs.map((j) => {
                const job = target(j);
                return (
                  <tr key={String(j.id)}>
                    <td>
                      <time dateTime={j.at} title={exactTime(j.at)}>
                        {formatDate(j.at)}
                      </time>
                      <div>
                        <span class={`badge ${j.action === 'publish' ? 'ok' : 'draft'}`}>{actionLabel(j.action)}</span>
                      </div>
                    </td>
                    <td>
                      <Link to={job.to}>{job.title}</Link>
                      <div class="muted small">{job.kind}</div>
                    </td>
                    <td>
                      <button
                        type="button"
                        class="ghost"
                        onClick={() => void cancel(j)}
                        aria-label={t('scheduled.cancelOf', { action: actionLabel(j.action), title: job.title })}
                      >
                        {t('scheduled.cancel')}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {list && <Pager list={list} setPage={(n) => updateQuery(q, { page: String(n) })} />}
    </section>
  );
}
