/** The logged-in frame: sidebar (collections, globals, account) and the routed page. */
import type { ComponentChildren, ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { AdminConfig, User } from '../api.ts';
import { collectionIcon, findCollection, isAdmin, useApp, visibleCollections } from '../app-context.ts';
import { globalLabel, pluralLabel } from '../format.ts';
import { Link, useLocation, type Location } from '../router.tsx';
import { ShellTools } from './shell-tools.tsx';
import { Icon } from '../ui.tsx';
import { LazyView, lazyComponent } from '../lazy.tsx';
import { Dashboard } from './dashboard.tsx';
import { ListView } from './list-view.tsx';
import { PaletteLauncher } from '../palette/palette-launcher.tsx';
import { t, withPageMessages } from '../i18n/i18n.ts';

// The dashboard and the lists are the first paint; the other pages are fetched when first opened (lazy.tsx).
const pages = withPageMessages(() => import('./pages.tsx'));
const EditView = lazyComponent(() => pages().then((m) => m.EditView));
const GlobalView = lazyComponent(() => pages().then((m) => m.GlobalView));
const MediaLibrary = lazyComponent(() => pages().then((m) => m.MediaLibrary));
const AccountSecurity = lazyComponent(() => pages().then((m) => m.AccountSecurity));

type OperationsPage = {
  path: string;
  label: () => string;
  icon: string;
  feature?: 'audit' | 'mcp';
  page: ComponentType<{ location: Location }>;
};
const trashView = withPageMessages(() => import('./trash-view.tsx'));
const releasePages = withPageMessages(() => import('./releases/releases-pages.ts'));
const ReleasesView = lazyComponent<{ location: Location }>(() => releasePages().then((m) => m.ReleasesView));
const ReleasePage = lazyComponent<{ id: string }>(() => releasePages().then((m) => m.ReleasePage));
const operationsPages = withPageMessages(() => import('./ops/operations-pages.tsx'));
const operationsPage = (name: keyof Awaited<ReturnType<typeof operationsPages>>) =>
  lazyComponent<{ location: Location }>(() =>
    operationsPages().then((m) => m[name] as ComponentType<{ location: Location }>),
  );

/** Admins' operations pages: path below /operations/, nav label, icon, page. */
const OPERATIONS: OperationsPage[] = [
  {
    path: 'webhooks',
    label: () => t('shell.opWebhooks'),
    icon: 'upload',
    page: operationsPage('WebhookDeliveriesView'),
  },
  { path: 'scheduled', label: () => t('shell.opScheduled'), icon: 'clock', page: operationsPage('ScheduledJobsView') },
  { path: 'health', label: () => t('shell.opHealth'), icon: 'check', page: operationsPage('HealthView') },
  { path: 'backups', label: () => t('shell.opBackups'), icon: 'file', page: operationsPage('BackupsView') },
  {
    path: 'audit',
    label: () => t('shell.opAudit'),
    icon: 'clock',
    feature: 'audit',
    page: operationsPage('AuditLogView'),
  },
  {
    path: 'assistant',
    label: () => t('shell.opAssistant'),
    icon: 'key',
    feature: 'mcp',
    page: operationsPage('ConnectAssistant'),
  },
];

/** The operations pages this server has (the audit log and the assistant panel only where turned on). */
const operationsOf = (config: AdminConfig) => OPERATIONS.filter((o) => !o.feature || config.features?.[o.feature]);

/** Collections this user can open (API keys are for admins only). */
function route(
  loc: Location,
  config: AdminConfig,
  user: User,
): { key: string; page: ComponentChildren; active: string | null } {
  const parts = loc.path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { key: 'home', page: <Dashboard />, active: null };
  if (parts[0] === 'collections') {
    const c = findCollection(config, parts[1]);
    if (c && parts.length === 2) {
      const page =
        c.builtIn === 'media' ? (
          <MediaLibrary collection={c} location={loc} />
        ) : (
          <ListView collection={c} location={loc} />
        );
      return { key: `list:${c.slug}`, page, active: `c:${c.slug}` };
    }
    if (c?.trash && parts.length === 3 && parts[2] === 'trash') {
      return {
        key: `trash:${c.slug}`,
        page: <LazyView load={trashView} props={{ collection: c, location: loc }} />,
        active: `c:${c.slug}`,
      };
    }
    if (c && parts.length === 3) {
      const id = parts[2] === 'create' ? null : parts[2]!;
      return { key: `edit:${c.slug}:${parts[2]}`, page: <EditView collection={c} id={id} />, active: `c:${c.slug}` };
    }
  }
  const op =
    parts[0] === 'operations' && parts.length === 2 && isAdmin(user)
      ? operationsOf(config).find((o) => o.path === parts[1])
      : undefined;
  if (op) return { key: `op:${op.path}`, page: <op.page location={loc} />, active: `op:${op.path}` };
  if (parts[0] === 'releases' && config.features?.releases) {
    if (parts.length === 1) return { key: 'releases', page: <ReleasesView location={loc} />, active: 'releases' };
    if (parts.length === 2)
      return { key: `release:${parts[1]}`, page: <ReleasePage id={parts[1]!} />, active: 'releases' };
  }
  if (loc.path === '/account/security') return { key: 'security', page: <AccountSecurity />, active: 'security' };
  if (parts[0] === 'globals' && parts.length === 2) {
    const g = config.globals.find((x) => x.slug === parts[1]);
    if (g) return { key: `global:${g.slug}`, page: <GlobalView global={g} />, active: `g:${g.slug}` };
  }
  return {
    key: 'not-found',
    active: null,
    page: (
      <section>
        <h1 tabIndex={-1}>{t('shell.notFound')}</h1>
        <p class="muted">
          {t('shell.nothingHere')} <Link to="/">{t('shell.backToDashboard')}</Link>
        </p>
      </section>
    ),
  };
}

/** Moves focus to the new page's heading so screen readers announce it (it may render after loading). */
function useFocusHeading(key: string) {
  useEffect(() => {
    let tries = 0;
    let frame = 0;
    const find = () => {
      const h = document.querySelector<HTMLElement>('#main h1');
      if (h) h.focus({ preventScroll: true });
      else if (++tries < 60) frame = requestAnimationFrame(find);
    };
    frame = requestAnimationFrame(find);
    return () => cancelAnimationFrame(frame);
  }, [key]);
}

export function Shell(props: { onLogout: () => void }) {
  const { config, user } = useApp();
  const loc = useLocation();
  const r = route(loc, config, user);
  useFocusHeading(r.key);
  // Phones show the navigation behind a menu button; any navigation closes it again.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [r.key]);
  const collections = visibleCollections(config, user);
  const content = collections.filter((c) => !c.builtIn || c.builtIn === 'media');
  const system = collections.filter((c) => c.builtIn && c.builtIn !== 'media');

  const navLink = (to: string, key: string, label: string, icon: string) => (
    <Link
      to={to}
      class={`nav-item ${r.active === key ? 'active' : ''}`}
      aria-current={r.active === key ? 'page' : undefined}
      key={key}
    >
      <Icon name={icon} />
      <span class="truncate">{label}</span>
    </Link>
  );

  return (
    <div class="layout">
      <a href="#main" class="skip-link">
        {t('shell.skip')}
      </a>
      <aside class={`sidebar ${menuOpen ? 'open' : ''}`}>
        <Link to="/" class="brand">
          <span class="logo" aria-hidden="true" />
          CMS
        </Link>
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <Icon name={menuOpen ? 'x' : 'menu'} /> {t('shell.menu')}
        </button>
        <nav aria-label={t('shell.navMain')} id="main-nav">
          <PaletteLauncher />
          <div class="nav-title">{t('shell.collections')}</div>
          {content.map((c) => navLink(`/collections/${c.slug}`, `c:${c.slug}`, pluralLabel(c), collectionIcon(c)))}
          {config.globals.length > 0 && <div class="nav-title">{t('shell.globals')}</div>}
          {config.globals.map((g) => navLink(`/globals/${g.slug}`, `g:${g.slug}`, globalLabel(g), 'settings'))}
          {config.features?.releases && <div class="nav-title">{t('shell.publishing')}</div>}
          {config.features?.releases && navLink('/releases', 'releases', t('shell.releases'), 'clock')}
          {system.length > 0 && <div class="nav-title">{t('shell.admin')}</div>}
          {system.map((c) => navLink(`/collections/${c.slug}`, `c:${c.slug}`, pluralLabel(c), collectionIcon(c)))}
          {isAdmin(user) &&
            operationsOf(config).map((o) => navLink(`/operations/${o.path}`, `op:${o.path}`, o.label(), o.icon))}
          <div class="nav-title">{t('shell.account')}</div>
          {navLink('/account/security', 'security', t('shell.security'), 'key')}
        </nav>
        <div class="account">
          <Link to={`/collections/users/${user.id}`} class="who" title={t('shell.yourAccount')}>
            <span class="avatar" aria-hidden="true">
              {(user.name || user.email).charAt(0).toUpperCase()}
            </span>
            <span class="who-text">
              <span class="truncate">{user.name || user.email}</span>
              <span class="muted small">{user.role}</span>
            </span>
          </Link>
          <button
            type="button"
            class="icon-button"
            onClick={props.onLogout}
            aria-label={t('shell.logout')}
            title={t('shell.logout')}
          >
            <Icon name="logout" />
          </button>
        </div>
        <ShellTools />
      </aside>
      <main class="content" id="main" key={r.key}>
        {r.page}
      </main>
    </div>
  );
}
