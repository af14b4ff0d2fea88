import { render, type ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import {
  adminConfig,
  ApiError,
  auth,
  listDocs,
  runtime,
  setCsrfToken,
  type AdminConfig,
  type CollectionConfig,
  type ListResult,
  type LoginResult,
  type User,
} from './api.ts'
import './styles.css'

// ---------------------------------------------------------------- routing

/** The path below the admin mount: `/`, `/collections/posts`, … */
function currentRoute(): string {
  const p = location.pathname
  const rest = p.startsWith(runtime.adminPrefix) ? p.slice(runtime.adminPrefix.length) : p
  return rest === '' ? '/' : rest
}

export function navigate(route: string): void {
  history.pushState(null, '', runtime.adminPrefix + route)
  dispatchEvent(new PopStateEvent('popstate'))
}

function useRoute(): string {
  const [route, setRoute] = useState(currentRoute)
  useEffect(() => {
    const on = () => setRoute(currentRoute())
    addEventListener('popstate', on)
    return () => removeEventListener('popstate', on)
  }, [])
  return route
}

function Link(props: { to: string; class?: string; children: ComponentChildren }) {
  return (
    <a
      href={runtime.adminPrefix + props.to}
      class={props.class}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
        e.preventDefault()
        navigate(props.to)
      }}
    >
      {props.children}
    </a>
  )
}

// ---------------------------------------------------------------- helpers

const message = (e: unknown) => (e instanceof Error ? e.message : String(e))

function labelOf(c: CollectionConfig): string {
  return c.labels?.plural ?? humanize(c.slug)
}

function humanize(s: string): string {
  const t = s.replace(/[-_]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2')
  return t.charAt(0).toUpperCase() + t.slice(1)
}

function formatDate(v: unknown): string {
  if (typeof v !== 'string') return ''
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? v : d.toLocaleString()
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'string') return v.length > 80 ? `${v.slice(0, 80)}…` : v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  if (typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>
    for (const k of ['title', 'name', 'filename', 'email']) if (typeof o[k] === 'string') return o[k] as string
    if ('id' in o) return `#${o.id}`
  }
  return JSON.stringify(v).slice(0, 80)
}

function ErrorBox(props: { error?: string | null }) {
  return props.error ? (
    <div class="error" role="alert">
      {props.error}
    </div>
  ) : null
}

// ---------------------------------------------------------------- auth screens

function AuthCard(props: { title: string; intro?: string; children: ComponentChildren }) {
  return (
    <main class="auth">
      <div class="card auth-card">
        <div class="brand">
          <span class="logo" aria-hidden="true" />
          CMS
        </div>
        <h1>{props.title}</h1>
        {props.intro && <p class="muted">{props.intro}</p>}
        {props.children}
      </div>
    </main>
  )
}

function LoginForm(props: { onDone: (r: LoginResult) => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const submit = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      props.onDone(await auth.login(email, password))
    } catch (err) {
      setError(message(err))
      setBusy(false)
    }
  }
  return (
    <AuthCard title="Log in">
      <form onSubmit={submit} class="form">
        <ErrorBox error={error} />
        <label>
          Email
          <input type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </AuthCard>
  )
}

function FirstRegisterForm(props: { onDone: (r: LoginResult) => void }) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const submit = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      props.onDone(await auth.firstRegister(email, password, name))
    } catch (err) {
      setError(message(err))
      setBusy(false)
    }
  }
  return (
    <AuthCard title="Create the first admin" intro="No user exists yet. This account will be an administrator.">
      <form onSubmit={submit} class="form">
        <ErrorBox error={error} />
        <label>
          Name
          <input type="text" autoComplete="name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Email
          <input type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create admin'}
        </button>
      </form>
    </AuthCard>
  )
}

// ---------------------------------------------------------------- logged-in screens

function Dashboard(props: { config: AdminConfig }) {
  const { collections, globals } = props.config
  return (
    <section>
      <h1>Dashboard</h1>
      <h2 class="section-title">Collections</h2>
      {collections.length === 0 ? (
        <p class="muted">No collections are configured.</p>
      ) : (
        <div class="tiles">
          {collections.map((c) => (
            <Link to={`/collections/${c.slug}`} class="tile" key={c.slug}>
              <strong>{labelOf(c)}</strong>
              <span class="muted">{c.slug}</span>
            </Link>
          ))}
        </div>
      )}
      {globals.length > 0 && (
        <>
          <h2 class="section-title">Globals</h2>
          <div class="tiles">
            {globals.map((g) => (
              <div class="tile static" key={g.slug}>
                <strong>{g.label ?? humanize(g.slug)}</strong>
                <span class="muted">{g.slug}</span>
              </div>
            ))}
          </div>
        </>
      )}
    </section>
  )
}

function CollectionList(props: { collection: CollectionConfig }) {
  const c = props.collection
  const [page, setPage] = useState(1)
  const [data, setData] = useState<ListResult | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(true)

  useEffect(() => setPage(1), [c.slug])
  useEffect(() => {
    let live = true
    setLoading(true)
    setError(null)
    listDocs(c.slug, page, 20)
      .then((r) => live && setData(r))
      .catch((e) => live && setError(message(e)))
      .finally(() => live && setLoading(false))
    return () => {
      live = false
    }
  }, [c.slug, page])

  const titleField = c.admin?.useAsTitle
  const shown = c.fields
    .filter((f) => !f.hidden && f.name !== titleField && !['array', 'group', 'json', 'markdown', 'textarea'].includes(f.type))
    .slice(0, 3)
  const hasStatus = !!c.drafts

  return (
    <section>
      <div class="page-head">
        <h1>{labelOf(c)}</h1>
        {data && <span class="muted">{data.totalDocs} document{data.totalDocs === 1 ? '' : 's'}</span>}
      </div>
      <ErrorBox error={error} />
      {loading && !data ? (
        <p class="muted">Loading…</p>
      ) : data && data.docs.length === 0 ? (
        <div class="empty">No documents yet.</div>
      ) : data ? (
        <>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>{titleField ? humanize(titleField) : 'ID'}</th>
                  {shown.map((f) => (
                    <th key={f.name}>{f.label ?? humanize(f.name)}</th>
                  ))}
                  {hasStatus && <th>Status</th>}
                  <th>Updated</th>
                </tr>
              </thead>
              <tbody>
                {data.docs.map((d) => (
                  <tr key={String(d.id)}>
                    <td class="title-cell">{titleField ? cell(d[titleField]) || <span class="muted">#{String(d.id)}</span> : `#${d.id}`}</td>
                    {shown.map((f) => (
                      <td key={f.name}>{cell(d[f.name])}</td>
                    ))}
                    {hasStatus && (
                      <td>
                        <span class={`badge ${d.status === 'published' ? 'ok' : ''}`}>{String(d.status ?? '')}</span>
                      </td>
                    )}
                    <td class="muted nowrap">{formatDate(d.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {data.totalPages > 1 && (
            <div class="pager">
              <button disabled={!data.hasPrevPage || loading} onClick={() => setPage(page - 1)}>
                ← Previous
              </button>
              <span class="muted">
                Page {data.page} of {data.totalPages}
              </span>
              <button disabled={!data.hasNextPage || loading} onClick={() => setPage(page + 1)}>
                Next →
              </button>
            </div>
          )}
        </>
      ) : null}
    </section>
  )
}

function Shell(props: { user: User; onLogout: () => void }) {
  const route = useRoute()
  const [config, setConfig] = useState<AdminConfig | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    adminConfig()
      .then((c) => setConfig({ collections: c?.collections ?? [], globals: c?.globals ?? [] }))
      .catch((e) => setError(message(e)))
  }, [])

  const logout = async () => {
    try {
      await auth.logout()
    } catch {
      // The session may already be gone; the login screen follows either way.
    }
    setCsrfToken(undefined)
    props.onLogout()
  }

  const m = route.match(/^\/collections\/([^/]+)\/?$/)
  const slug = m ? decodeURIComponent(m[1]!) : null
  const collection = slug ? config?.collections.find((c) => c.slug === slug) : undefined

  let body: ComponentChildren
  if (error) body = <ErrorBox error={error} />
  else if (!config) body = <p class="muted">Loading…</p>
  else if (route === '/' || route === '') body = <Dashboard config={config} />
  else if (collection) body = <CollectionList collection={collection} />
  else
    body = (
      <section>
        <h1>Not found</h1>
        <p class="muted">
          Nothing is at this address. <Link to="/">Back to the dashboard</Link>
        </p>
      </section>
    )

  return (
    <div class="layout">
      <aside class="sidebar">
        <Link to="/" class="brand">
          <span class="logo" aria-hidden="true" />
          CMS
        </Link>
        <nav>
          <div class="nav-title">Collections</div>
          {config?.collections.map((c) => (
            <Link to={`/collections/${c.slug}`} class={`nav-item ${c.slug === slug ? 'active' : ''}`} key={c.slug}>
              {labelOf(c)}
            </Link>
          ))}
        </nav>
        <div class="account">
          <div class="who" title={props.user.email}>
            {props.user.name || props.user.email}
          </div>
          <button class="link" onClick={logout}>
            Log out
          </button>
        </div>
      </aside>
      <main class="content">{body}</main>
    </div>
  )
}

// ---------------------------------------------------------------- app

type State =
  | { kind: 'loading' }
  | { kind: 'unreachable'; error: string }
  | { kind: 'first-register' }
  | { kind: 'login' }
  | { kind: 'ready'; user: User }

function App() {
  const [state, setState] = useState<State>({ kind: 'loading' })

  const boot = async () => {
    try {
      const { hasUsers } = await auth.init()
      if (!hasUsers) return setState({ kind: 'first-register' })
      const user = await auth.me()
      setState(user ? { kind: 'ready', user } : { kind: 'login' })
    } catch (e) {
      setState({ kind: 'unreachable', error: e instanceof ApiError ? e.message : message(e) })
    }
  }
  useEffect(() => {
    void boot()
  }, [])

  const loggedIn = (r: LoginResult) => {
    setCsrfToken(r.csrfToken)
    setState({ kind: 'ready', user: r.user })
  }

  switch (state.kind) {
    case 'loading':
      return <div class="center muted">Loading…</div>
    case 'unreachable':
      return (
        <AuthCard title="Cannot reach the API">
          <ErrorBox error={state.error} />
          <button class="primary" onClick={() => void boot()}>
            Try again
          </button>
        </AuthCard>
      )
    case 'first-register':
      return <FirstRegisterForm onDone={loggedIn} />
    case 'login':
      return <LoginForm onDone={loggedIn} />
    case 'ready':
      return <Shell user={state.user} onLogout={() => setState({ kind: 'login' })} />
  }
}

render(<App />, document.getElementById('app')!)
