/**
 * The documents of a collection: chosen columns, sort by any header, search, filters, page size, paging,
 * and bulk actions on selected rows. Page, sort, search, filters and page size live in the URL.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { docs, schedule, type CollectionConfig, type Doc, type ListResult } from '../api.ts';
import { isAdmin, mayManage, useApp } from '../app-context.ts';
import { UploadCell } from '../list/upload-cell.tsx';
import {
  cellText,
  docTitle,
  fieldLabel,
  formatDate,
  humanize,
  message,
  pluralLabel,
  singularLabel,
} from '../format.ts';
import { Link, navigate, replaceQuery, updateQuery, type Location } from '../router.tsx';
import { ErrorBox } from '../ui/error-box.tsx';
import { Icon } from '../ui.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { LocaleSwitcher } from '../form/locale-switcher.tsx';
import { StatusBadges } from './edit/status-badges.tsx';
import { readConditions, whereOf, writeConditions } from '../list/list-filter.ts';
import { ColumnPicker, useColumns } from '../list/column-picker.tsx';
import FilterPanel from '../list/filter-builder.tsx';
import BulkActions from '../list/bulk-actions.tsx';
import { useRefreshOnChange } from '../realtime.ts';
import { TrashLink } from './trash-link.tsx';
import { t, tn } from '../i18n/i18n.ts';

const PAGE_SIZES = [10, 20, 50, 100];
const DEFAULT_PAGE_SIZE = 20;

/**
 * For the listed drafts (the list itself shows the pending drafts): what is live, one request per page,
 * and which rows have a pending scheduled job. Admins ask `GET /jobs/scheduled` once for the page's ids;
 * that route is theirs alone, so others ask each row's `…/schedule` (100 small reads at most, in parallel).
 */
async function draftFacts(
  slug: string,
  rows: Doc[],
  admin: boolean,
): Promise<{ live: Map<string, unknown>; scheduled: Set<string> }> {
  if (rows.length === 0) return { live: new Map(), scheduled: new Set() };
  const ids = rows.map((d) => d.id).join(',');
  const scheduled = admin
    ? schedule.pending({ collection: slug, parent: ids, limit: 100 }).then(
        (j) => j.docs.map((x) => String(x.parent)),
        () => [],
      )
    : Promise.all(
        rows.map((d) =>
          schedule.list({ collection: slug, id: d.id! }).then(
            (j) => (j.docs.length ? String(d.id) : null),
            () => null,
          ),
        ),
      );
  const [r, jobs] = await Promise.all([docs.list(slug, { where: { id: { in: ids } }, limit: rows.length }), scheduled]);
  return {
    live: new Map(r.docs.map((d) => [String(d.id), d.status])),
    scheduled: new Set(jobs.filter((x): x is string => x !== null)),
  };
}

export function ListView(props: { collection: CollectionConfig; location: Location }) {
  const c = props.collection;
  const { locale, user } = useApp();
  const canCreate = mayManage(c, user);
  const q = props.location.query;
  const page = Math.max(1, Number(q.get('page')) || 1);
  const search = q.get('q') ?? '';
  // Full-text matches come best first unless a column's order is chosen.
  const fullText = Boolean(c.search);
  const sort = q.get('sort') ?? (fullText && search ? '' : '-updatedAt');
  const limit = PAGE_SIZES.includes(Number(q.get('limit'))) ? Number(q.get('limit')) : DEFAULT_PAGE_SIZE;
  const conditions = readConditions(q);
  const filterKey = JSON.stringify(conditions);
  const [selected, setSelected] = useState<string[]>([]);
  const [reloads, setReloads] = useState(0);
  const [filtersOpen, setFiltersOpen] = useState(conditions.length > 0);
  const [draftSearch, setDraftSearch] = useState(search);
  const [data, setData] = useState<ListResult | null>(null);
  // Drafts collections list the latest drafts; this holds what is live for the rows shown (id → status).
  const [facts, setFacts] = useState<{ live: Map<string, unknown>; scheduled: Set<string> }>({
    live: new Map(),
    scheduled: new Set(),
  });
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const titleKey = c.admin?.useAsTitle ?? 'id';
  const [choices, shown, chooseColumns] = useColumns(c, titleKey, user.id);
  const searchable = titleKey !== 'id' || fullText;
  const base = `/collections/${c.slug}`;

  const setQuery = (changes: Record<string, string | null>) => updateQuery(q, changes);

  useEffect(() => {
    setDraftSearch(search);
  }, [c.slug]);
  // A selection is of rows in view; another page, filter or order starts afresh.
  useEffect(() => setSelected([]), [c.slug, page, limit, filterKey, search, sort]);
  useEffect(() => {
    let live = true;
    setLoading(true);
    const where = whereOf(conditions, searchable && !fullText ? { field: titleKey, text: search } : undefined);
    docs
      .list(c.slug, {
        page,
        limit,
        sort: sort || undefined,
        where,
        search: fullText ? search : undefined,
        locale,
        depth: 1,
        draft: c.drafts,
      })
      .then(async (r) => {
        const more = c.drafts
          ? await draftFacts(c.slug, r.docs, isAdmin(user))
          : { live: new Map(), scheduled: new Set<string>() };
        if (!live) return;
        setData(r);
        setFacts(more);
        setError(null);
      })
      .catch((e) => live && setError(message(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [c.slug, page, sort, search, locale, limit, filterKey, reloads]);

  // A write anywhere (another editor, the job loop, an API client) shows here without a reload.
  useRefreshOnChange([c.slug], () => setReloads((n) => n + 1), 150, locale);

  const onSearch = (v: string) => {
    setDraftSearch(v);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setQuery({ q: v, page: null }), 250);
  };

  const columns = [
    {
      key: titleKey,
      label:
        titleKey === 'id'
          ? 'ID'
          : fieldLabel(c.fields.find((f) => f.name === titleKey) ?? { name: titleKey, type: 'text' }),
    },
    ...shown,
  ];
  const pageIds = data ? data.docs.map((d) => String(d.id)) : [];
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  const toggle = (id: string) =>
    setSelected(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);

  const first = data ? (data.page - 1) * data.limit + 1 : 0;
  const last = data ? first + data.docs.length - 1 : 0;

  return (
    <section>
      <div class="page-head">
        <div>
          <h1 tabIndex={-1}>{pluralLabel(c)}</h1>
          {data && <span class="muted">{tn('list.documents', data.totalDocs)}</span>}
        </div>
        <div class="actions">
          <LocaleSwitcher dirty={false} fields={c.fields} />
          <TrashLink collection={c} />
          {canCreate && (
            <Link to={`${base}/create`} class="button primary">
              <Icon name="plus" /> {t('list.createNew')}
            </Link>
          )}
        </div>
      </div>

      <div class="toolbar">
        {searchable && (
          <div class="search">
            <Icon name="search" />
            <input
              type="search"
              aria-label={
                fullText
                  ? t('list.searchAll', { label: pluralLabel(c), labelLower: pluralLabel(c).toLowerCase() })
                  : t('list.searchBy', {
                      label: pluralLabel(c),
                      labelLower: pluralLabel(c).toLowerCase(),
                      field: columns[0]!.label,
                      fieldLower: humanize(titleKey).toLowerCase(),
                    })
              }
              placeholder={
                fullText
                  ? t('list.search')
                  : t('list.searchByShort', { field: columns[0]!.label, fieldLower: humanize(titleKey).toLowerCase() })
              }
              value={draftSearch}
              onInput={(e) => onSearch(e.currentTarget.value)}
            />
          </div>
        )}
        <button
          type="button"
          aria-expanded={filtersOpen}
          aria-controls="filter-panel"
          onClick={() => setFiltersOpen(!filtersOpen)}
        >
          <Icon name="filter" /> {t('list.filters')}
          {conditions.length > 0 && <span class="count">{conditions.length}</span>}
        </button>
        <ColumnPicker choices={choices} shown={shown} onChange={chooseColumns} />
        {filtersOpen && (
          <FilterPanel collection={c} applied={conditions} onApply={(next) => replaceQuery(writeConditions(q, next))} />
        )}
      </div>

      <ErrorBox error={error} />
      <BulkActions
        collection={c}
        selected={selected}
        titles={new Map((data?.docs ?? []).map((d) => [String(d.id), docTitle(c, d)]))}
        onDone={(keep) => {
          setSelected(keep);
          setReloads((n) => n + 1);
        }}
      />
      {!data && loading ? (
        <Spinner />
      ) : data && data.docs.length === 0 ? (
        <div class="empty">
          {search || conditions.length ? (
            <p>
              {search
                ? t('list.noMatchSearch', { label: pluralLabel(c), labelLower: pluralLabel(c).toLowerCase(), search })
                : t('list.noMatchFilters', { label: pluralLabel(c), labelLower: pluralLabel(c).toLowerCase() })}
            </p>
          ) : (
            <>
              <p>{t('list.noneYet', { label: pluralLabel(c), labelLower: pluralLabel(c).toLowerCase() })}</p>
              {canCreate && (
                <Link to={`${base}/create`} class="button primary">
                  {t('list.createFirst', { label: singularLabel(c), labelLower: singularLabel(c).toLowerCase() })}
                </Link>
              )}
            </>
          )}
        </div>
      ) : data ? (
        <>
          <div class={`table-wrap ${loading ? 'is-loading' : ''}`}>
            <table>
              <thead>
                <tr>
                  <th class="select-cell" scope="col">
                    <input
                      type="checkbox"
                      aria-label={t('list.selectAll')}
                      checked={allSelected}
                      onChange={() => setSelected(allSelected ? [] : pageIds)}
                    />
                  </th>
                  {columns.map((col) => {
                    const dir = sort === col.key ? 'ascending' : sort === `-${col.key}` ? 'descending' : undefined;
                    return (
                      <th key={col.key} aria-sort={dir ?? 'none'} scope="col">
                        <button
                          type="button"
                          class="sort"
                          onClick={() => setQuery({ sort: dir === 'ascending' ? `-${col.key}` : col.key, page: null })}
                        >
                          {col.label}
                          <Icon name={dir === 'ascending' ? 'asc' : dir === 'descending' ? 'desc' : 'sort'} size={14} />
                        </button>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {data.docs.map((d) => (
                  <tr
                    key={String(d.id)}
                    class={selected.includes(String(d.id)) ? 'selected' : undefined}
                    onClick={(e) =>
                      !(e.target as HTMLElement).closest('a, .select-cell') && void navigate(`${base}/${d.id}`)
                    }
                  >
                    <td class="select-cell">
                      <input
                        type="checkbox"
                        aria-label={t('list.selectRow', { title: docTitle(c, d) })}
                        checked={selected.includes(String(d.id))}
                        onChange={() => toggle(String(d.id))}
                      />
                    </td>
                    {columns.map((col, i) =>
                      i === 0 ? (
                        <td class="title-cell" key={col.key}>
                          <Link to={`${base}/${d.id}`}>{docTitle(c, d)}</Link>
                        </td>
                      ) : col.key === 'status' ? (
                        <td key={col.key}>
                          <StatusBadges draft={d.status} live={facts.live.get(String(d.id))} />
                          {facts.scheduled.has(String(d.id)) && (
                            <span class="badge scheduled">{t('list.scheduled')}</span>
                          )}
                        </td>
                      ) : col.key === 'updatedAt' || col.key === 'createdAt' ? (
                        <td class="muted nowrap" key={col.key}>
                          {formatDate(d[col.key])}
                        </td>
                      ) : col.field?.type === 'upload' ? (
                        <td class="upload-cell" key={col.key}>
                          <UploadCell field={col.field} value={d[col.key]} />
                        </td>
                      ) : (
                        <td key={col.key}>{cellText(col.field, col.key === 'id' ? String(d.id) : d[col.key])}</td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav class="pager" aria-label={t('list.pages')}>
            <span class="muted">{t('list.range', { first, last, total: data.totalDocs })}</span>
            <label class="page-size">
              {t('list.perPage')}{' '}
              <select
                value={limit}
                onChange={(e) =>
                  setQuery({
                    limit: e.currentTarget.value === String(DEFAULT_PAGE_SIZE) ? null : e.currentTarget.value,
                    page: null,
                  })
                }
              >
                {PAGE_SIZES.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
            <span class="spacer" />
            <button
              type="button"
              disabled={!data.hasPrevPage || loading}
              onClick={() => setQuery({ page: String(page - 1) })}
            >
              {t('list.previous')}
            </button>
            <span class="muted">{t('list.pageOf', { page: data.page, pages: Math.max(1, data.totalPages) })}</span>
            <button
              type="button"
              disabled={!data.hasNextPage || loading}
              onClick={() => setQuery({ page: String(page + 1) })}
            >
              {t('list.next')}
            </button>
          </nav>
        </>
      ) : null}
    </section>
  );
}
