/** Admins: every pending scheduled publish / unpublish across the site, soonest first, each cancellable. */
import { docs, schedule, type Doc, type ScheduledJob } from '../../api.ts';
import { findCollection, useApp } from '../../app-context.ts';
import { docTitle, exactTime, formatDate, globalLabel, message, singularLabel } from '../../format.ts';
import { Link, updateQuery, type Location } from '../../router.tsx';
import { confirmDialog } from '../../ui/confirm-dialog.tsx';
import { toast } from '../../ui/toasts.tsx';
import { contentTopics, useRefreshOnChange } from '../../realtime.ts';
import { t } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';
import { OpsTable } from './ops-table.tsx';

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
  const loaded = useLoad(
    () =>
      schedule
        .pending({ page, limit: PAGE_SIZE })
        .then(async (r) => ({ list: r, titles: await titlesOf(config, r.docs) })),
    [page],
  );
  const titles = loaded.data?.titles ?? new Map<string, string>();
  // A publish by the job loop (or anyone) takes its job off the list.
  useRefreshOnChange(contentTopics(config), loaded.reload, 400);

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
      loaded.reload();
    } catch (e) {
      toast(message(e), 'error');
    }
  };

  return (
    <section>
      <h1 tabIndex={-1}>{t('scheduled.title')}</h1>
      <p class="muted">{t('scheduled.intro')}</p>
      <OpsTable
        list={loaded.data?.list ?? null}
        error={loaded.error}
        empty={t('scheduled.none')}
        headers={[t('scheduled.when'), t('scheduled.document')]}
        actions
        rowKey={(j) => String(j.id)}
        cells={(j) => {
          const job = target(j);
          return (
            <>
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
            </>
          );
        }}
        setPage={(n) => updateQuery(q, { page: String(n) })}
      />
    </section>
  );
}
