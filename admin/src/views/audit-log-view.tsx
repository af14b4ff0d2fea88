/**
 * Admins: every write, newest first (docs/audit-log.md), filtered by user, collection or global, document
 * and action; each entry shows who, how (REST, GraphQL, MCP, …), from where, and the fields it changed.
 * A document's versions panel links here with its collection and id filled in.
 */
import { useEffect, useState } from 'preact/hooks'
import { docs, type ListResult } from '../api.ts'
import { ops, type AuditEntry, type AuditFilter } from '../ops-api.ts'
import { useApp } from '../app-context.ts'
import { exactTime, formatDate, globalLabel, message, pluralLabel } from '../format.ts'
import { Link, updateQuery, type Location } from '../router.tsx'
import { ErrorBox, Pager, Spinner } from '../ui.tsx'

const ACTIONS = ['create', 'update', 'delete', 'publish', 'unpublish', 'restore', 'discard_draft', 'schedule', 'unschedule', 'login', 'login_failed', 'import']

const shown = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value))

function Changes(props: { changes: AuditEntry['changes'] }) {
  const paths = Object.keys(props.changes)
  if (paths.length === 0) return <span class="muted">—</span>
  return (
    <details>
      <summary>{paths.length === 1 ? paths[0] : `${paths.length} fields`}</summary>
      <dl class="audit-changes">
        {paths.map((p) => (
          <div key={p}>
            <dt>{p}</dt>
            <dd>
              <del class="truncate">{shown(props.changes[p]!.from)}</del> → <ins class="truncate">{shown(props.changes[p]!.to)}</ins>
            </dd>
          </div>
        ))}
      </dl>
    </details>
  )
}

export default function AuditLogView(props: { location: Location }) {
  const { config } = useApp()
  const q = props.location.query
  const filter: AuditFilter = { user: q.get('user') ?? '', collection: q.get('collection') ?? '', document: q.get('document') ?? '', action: q.get('action') ?? '' }
  const page = Math.max(1, Number(q.get('page')) || 1)
  const setQuery = (changes: Record<string, string | null>) => updateQuery(q, { ...changes, page: null })
  const [list, setList] = useState<ListResult<AuditEntry> | null>(null)
  const [users, setUsers] = useState<{ id: number; email: string }[]>([])
  const [error, setError] = useState<string | null>(null)
  const key = JSON.stringify([filter, page])

  useEffect(() => {
    let live = true
    setError(null)
    ops.auditLog(page, filter).then((r) => live && setList(r)).catch((e) => live && setError(message(e)))
    return () => {
      live = false
    }
  }, [key])
  useEffect(() => {
    docs.list('users', { limit: 100, sort: 'email' }).then((r) => setUsers(r.docs as { id: number; email: string }[])).catch(() => {})
  }, [])
  const emailOf = (id: number | null) => (id === null ? 'nobody' : users.find((u) => u.id === id)?.email ?? `user #${id}`)
  const subject = (e: AuditEntry) => {
    if (e.global) return <Link to={`/globals/${e.global}`}>{e.global}</Link>
    if (e.collection && e.document !== null && e.action !== 'delete') return <Link to={`/collections/${e.collection}/${e.document}`}>{`${e.collection} #${e.document}`}</Link>
    return <span>{e.collection}{e.document !== null ? ` #${e.document}` : ''}</span>
  }

  return (
    <section>
      <h1 tabIndex={-1}>Audit log</h1>
      <p class="muted">Every write: who made it, how, and what it changed. Passwords, keys and hidden fields are never recorded.</p>
      <div class="toolbar">
        <label>
          User{' '}
          <select aria-label="User" value={filter.user} onChange={(e) => setQuery({ user: e.currentTarget.value || null })}>
            <option value="">Anyone</option>
            {users.map((u) => (
              <option value={String(u.id)} key={u.id}>
                {u.email}
              </option>
            ))}
          </select>
        </label>
        <label>
          Collection{' '}
          <select aria-label="Collection" value={filter.collection} onChange={(e) => setQuery({ collection: e.currentTarget.value || null, document: null })}>
            <option value="">All</option>
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
          Document{' '}
          <input type="number" aria-label="Document" min={1} size={6} value={filter.document} onChange={(e) => setQuery({ document: e.currentTarget.value || null })} />
        </label>
        <label>
          Action{' '}
          <select aria-label="Action" value={filter.action} onChange={(e) => setQuery({ action: e.currentTarget.value || null })}>
            <option value="">All</option>
            {ACTIONS.map((a) => (
              <option value={a} key={a}>
                {a.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorBox error={error} />
      {!list && !error && <Spinner />}
      {list && list.docs.length === 0 && <p class="muted">No entries match.</p>}
      {list && list.docs.length > 0 && (
        <div class="table-wrap">
          <table class="ops-table audit-table">
            <thead>
              <tr>
                <th>When</th>
                <th>Action</th>
                <th>What</th>
                <th>Who</th>
                <th>Via</th>
                <th>Changes</th>
              </tr>
            </thead>
            <tbody>
              {list.docs.map((e) => (
                <tr key={e.id}>
                  <td title={exactTime(e.at)}>{formatDate(e.at)}</td>
                  <td>
                    <span class={`badge ${e.action === 'login_failed' || e.action === 'delete' ? 'danger' : e.action === 'publish' ? 'ok' : ''}`}>{e.action.replace('_', ' ')}</span>
                  </td>
                  <td>{subject(e)}</td>
                  <td>
                    {emailOf(e.user)}
                    {e.apiKey !== null && <div class="muted small">API key #{e.apiKey}</div>}
                  </td>
                  <td>
                    {e.via}
                    {e.ip && <div class="muted small">{e.ip}</div>}
                  </td>
                  <td>
                    <Changes changes={e.changes} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && <Pager list={list} setPage={(n) => updateQuery(q, { page: String(n) })} />}
    </section>
  )
}
