/**
 * Admins: every write, newest first (docs/audit-log.md), filtered by user, collection or global, document
 * and action; each entry shows who, how (REST, GraphQL, MCP, …), from where, and the fields it changed.
 * A document's versions panel links here with its collection and id filled in. Documents are named by
 * their titles and people by their names (read once per page).
 */
import { docs } from '../../api.ts';
import { ops, type AuditEntry, type AuditFilter } from '../../ops-api.ts';
import { findCollection, useApp } from '../../app-context.ts';
import { docLabel, exactTime, formatDate, globalLabel, pluralLabel, singularLabel } from '../../format.ts';
import { Link, updateQuery, type Location } from '../../router.tsx';
import { t } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';
import { OpsTable } from './ops-table.tsx';

const ACTIONS = [
  'create',
  'update',
  'delete',
  'publish',
  'unpublish',
  'restore',
  'discard_draft',
  'schedule',
  'unschedule',
  'login',
  'login_failed',
  'import',
  'end_sessions',
  'end_session',
  'reset_two_factor',
  'unlock',
];

/** An action's name in the reader's language. */
const actionLabel = (a: string): string =>
  ({
    create: t('audit.create'),
    update: t('audit.update'),
    delete: t('audit.delete'),
    publish: t('audit.publish'),
    unpublish: t('audit.unpublish'),
    restore: t('audit.restore'),
    discard_draft: t('audit.discardDraft'),
    schedule: t('audit.schedule'),
    unschedule: t('audit.unschedule'),
    login: t('audit.login'),
    login_failed: t('audit.loginFailed'),
    import: t('audit.import'),
    end_sessions: t('audit.endSessions'),
    end_session: t('audit.endSession'),
    reset_two_factor: t('audit.resetTwoFactor'),
    unlock: t('audit.unlock'),
  })[a] ?? a.replace('_', ' ');

const shown = (value: unknown) =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

function Changes(props: { changes: AuditEntry['changes'] }) {
  const paths = Object.keys(props.changes);
  if (paths.length === 0) return <span class="muted">—</span>;
  return (
    <details>
      <summary>{paths.length === 1 ? paths[0] : t('audit.fields', { n: paths.length })}</summary>
      <dl class="audit-changes">
        {paths.map((p) => (
          <div key={p}>
            <dt>{p}</dt>
            <dd>
              <del class="truncate">{shown(props.changes[p]!.from)}</del> →{' '}
              <ins class="truncate">{shown(props.changes[p]!.to)}</ins>
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

export default function AuditLogView(props: { location: Location }) {
  const { config } = useApp();
  const q = props.location.query;
  const filter: AuditFilter = {
    user: q.get('user') ?? '',
    collection: q.get('collection') ?? '',
    document: q.get('document') ?? '',
    action: q.get('action') ?? '',
  };
  const page = Math.max(1, Number(q.get('page')) || 1);
  const setQuery = (changes: Record<string, string | null>) => updateQuery(q, { ...changes, page: null });
  const key = JSON.stringify([filter, page]);
  const { data: list, error } = useLoad(() => ops.auditLog(page, filter), [key]);
  /** `<collection>/<id>` → the document's title, for the entries on this page. */
  const titles = useLoad(() => (list ? readTitles(list.docs) : undefined), [list]).data ?? new Map<string, string>();
  const users = (useLoad(() => docs.list('users', { limit: 100, sort: 'email' }), []).data?.docs ?? []) as {
    id: number;
    email: string;
    name?: string | null;
  }[];
  /** Reads the titles of this page's documents: one list request per collection. */
  const readTitles = async (entries: AuditEntry[]): Promise<Map<string, string>> => {
    const ids = new Map<string, Set<number>>();
    for (const e of entries)
      if (e.collection && e.document !== null && findCollection(config, e.collection))
        ids.set(e.collection, (ids.get(e.collection) ?? new Set()).add(e.document));
    const out = new Map<string, string>();
    await Promise.all(
      [...ids].map(([slug, set]) =>
        docs
          .list(slug, { where: { id: { in: [...set].join(',') } }, limit: set.size, depth: 0 })
          .then((r) => {
            for (const d of r.docs) out.set(`${slug}/${String(d.id)}`, docLabel(findCollection(config, slug), d));
          })
          .catch(() => {}),
      ),
    );
    return out;
  };
  const nameOf = (id: number | null) => {
    if (id === null) return t('audit.nobody');
    const user = users.find((u) => u.id === id);
    return user ? user.name || user.email : t('audit.userN', { id });
  };
  const subject = (e: AuditEntry) => {
    if (e.global) {
      const g = config.globals.find((x) => x.slug === e.global);
      return <Link to={`/globals/${e.global}`}>{g ? globalLabel(g) : e.global}</Link>;
    }
    const c = findCollection(config, e.collection ?? undefined);
    const title = e.document !== null ? titles.get(`${e.collection}/${e.document}`) : undefined;
    const kind = c ? singularLabel(c) : (e.collection ?? '');
    const name = title ?? (e.document !== null ? `${kind} #${e.document}` : kind);
    return (
      <span>
        {e.collection && e.document !== null && e.action !== 'delete' ? (
          <Link to={`/collections/${e.collection}/${e.document}`}>{name}</Link>
        ) : (
          name
        )}
        {title && <div class="muted small">{kind}</div>}
      </span>
    );
  };

  return (
    <section>
      <h1 tabIndex={-1}>{t('audit.title')}</h1>
      <p class="muted">{t('audit.intro')}</p>
      <div class="toolbar">
        <label>
          {t('audit.user')}{' '}
          <select
            aria-label={t('audit.user')}
            value={filter.user}
            onChange={(e) => setQuery({ user: e.currentTarget.value || null })}
          >
            <option value="">{t('audit.anyone')}</option>
            {users.map((u) => (
              <option value={String(u.id)} key={u.id}>
                {u.name ? `${u.name} (${u.email})` : u.email}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('audit.collection')}{' '}
          <select
            aria-label={t('audit.collection')}
            value={filter.collection}
            onChange={(e) => setQuery({ collection: e.currentTarget.value || null, document: null })}
          >
            <option value="">{t('audit.all')}</option>
            {config.collections.map((c) => (
              <option value={c.slug} key={c.slug}>
                {pluralLabel(c)}
              </option>
            ))}
            {config.globals.map((g) => (
              <option value={`globals/${g.slug}`} key={g.slug}>
                {globalLabel(g)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('audit.document')}{' '}
          <input
            type="number"
            aria-label={t('audit.document')}
            min={1}
            size={6}
            value={filter.document}
            onChange={(e) => setQuery({ document: e.currentTarget.value || null })}
          />
        </label>
        <label>
          {t('audit.action')}{' '}
          <select
            aria-label={t('audit.action')}
            value={filter.action}
            onChange={(e) => setQuery({ action: e.currentTarget.value || null })}
          >
            <option value="">{t('audit.all')}</option>
            {ACTIONS.map((a) => (
              <option value={a} key={a}>
                {actionLabel(a)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <OpsTable
        list={list}
        error={error}
        empty={t('audit.noMatch')}
        class="audit-table"
        headers={[
          t('audit.when'),
          t('audit.action'),
          t('audit.what'),
          t('audit.who'),
          t('audit.via'),
          t('audit.changes'),
        ]}
        rowKey={(e) => e.id}
        cells={(e) => (
          <>
            <td title={exactTime(e.at)}>{formatDate(e.at)}</td>
            <td>
              <span
                class={`badge ${e.action === 'login_failed' || e.action === 'delete' ? 'danger' : e.action === 'publish' || e.action === 'restore' ? 'ok' : ''}`}
              >
                {actionLabel(e.action)}
              </span>
            </td>
            <td>{subject(e)}</td>
            <td>
              {nameOf(e.user)}
              {e.apiKey !== null && <div class="muted small">{t('audit.apiKeyN', { id: e.apiKey })}</div>}
            </td>
            <td>
              {e.via}
              {e.ip && <div class="muted small">{e.ip}</div>}
            </td>
            <td>
              <Changes changes={e.changes} />
            </td>
          </>
        )}
        setPage={(n) => updateQuery(q, { page: String(n) })}
      />
    </section>
  );
}
