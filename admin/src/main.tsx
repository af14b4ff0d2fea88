/** The admin app: decides between first-register, login and the shell, and restores the session on reload. */
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { adminConfig, ApiError, auth, setCsrfToken, type AdminConfig, type LoginResult, type User } from './api.ts';
import { AppContext, type AppState } from './app-context.ts';
import { message } from './format.ts';
import { canLeave, navigate, setLeaveGuard, useLocation } from './router.tsx';
import { ConfirmHost } from './ui/confirm-dialog.tsx';
import { ErrorBox } from './ui/error-box.tsx';
import { Spinner } from './ui/spinner.tsx';
import { Toasts } from './ui/toasts.tsx';
import { AuthCard, FirstRegisterForm, LoginForm } from './views/account/auth-screens.tsx';
import { Shell } from './views/shell.tsx';
import { ForgotPasswordForm, ResetPasswordForm } from './views/account/password-reset-screens.tsx';
import { lazyComponent } from './lazy.tsx';
import { startTheme } from './theme.ts';
import { registerFieldEditors } from './form/editors.tsx';
import { loadLanguage, preferredLanguage, t, withPageMessages } from './i18n/i18n.ts';
import { createHandOver } from './form/prefill.ts';
import { countRenders } from './render-count.ts';
import './styles.css';

// The pages besides the dashboard and the lists, and the larger field editors, are one chunk (views/pages.tsx).
const pages = withPageMessages(() => import('./views/pages.tsx'));
registerFieldEditors(pages);
// Tests of a development build read what each key renders; a production build drops this.
if (process.env.NODE_ENV !== 'production') countRenders();
// Only users whose role must enrol see it, once.
const TwoFactorPanel = lazyComponent(() => pages().then((m) => m.TwoFactorPanel));

type State =
  | { kind: 'loading' }
  | { kind: 'unreachable'; error: string }
  | { kind: 'first-register' }
  | { kind: 'login'; notice?: string; email?: string }
  | { kind: 'enrol'; user: User }
  | { kind: 'ready'; user: User; config: AdminConfig };

const LOCALE_KEY = 'cms-admin-locale';

function initialLocale(config: AdminConfig): string | undefined {
  const l10n = config.localization;
  if (!l10n) return undefined;
  const saved = sessionStorage.getItem(LOCALE_KEY);
  return saved && l10n.locales.includes(saved) ? saved : l10n.defaultLocale;
}

function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [locale, setLocaleState] = useState<string | undefined>(undefined);
  // A new admin language (account page) re-renders everything with its catalogue.
  const [, setLanguage] = useState(0);
  useEffect(() => {
    const changed = () => setLanguage((n) => n + 1);
    addEventListener('cms:language', changed);
    return () => removeEventListener('cms:language', changed);
  }, []);
  const handOver = useMemo(createHandOver, []);

  const enter = async (user: User) => {
    const config = await adminConfig();
    setLocaleState(initialLocale(config));
    setState({ kind: 'ready', user, config });
  };

  const boot = async () => {
    setState({ kind: 'loading' });
    try {
      // The session first: a session means there are users, and during a forced enrolment
      // (auth.requireTwoFactor) /users/init is refused like everything else; a reload then resumes it.
      const session = await auth.session();
      if (session?.twoFactorSetupRequired) return setState({ kind: 'enrol', user: session.user });
      if (session) return await enter(session.user);
      const { hasUsers } = await auth.init();
      setState({ kind: hasUsers ? 'login' : 'first-register' });
    } catch (e) {
      setState({ kind: 'unreachable', error: e instanceof ApiError ? e.message : message(e) });
    }
  };

  useEffect(() => {
    void boot();
    const expired = () => {
      setLeaveGuard(null);
      setState((s) =>
        s.kind === 'ready' ? { kind: 'login', notice: t('auth.sessionEnded'), email: s.user.email } : s,
      );
    };
    addEventListener('cms:unauthorized', expired);
    return () => removeEventListener('cms:unauthorized', expired);
  }, []);

  const loggedIn = async (r: LoginResult) => {
    setCsrfToken(r.csrfToken);
    // auth.requireTwoFactor: this session answers nothing else until two-factor sign-in is on.
    if (r.twoFactorSetupRequired) return setState({ kind: 'enrol', user: r.user });
    try {
      await enter(r.user);
    } catch (e) {
      setState({ kind: 'unreachable', error: message(e) });
    }
  };

  const logout = async () => {
    if (!(await canLeave())) return;
    setLeaveGuard(null);
    try {
      await auth.logout();
    } catch {
      // The session may already be gone; the login screen follows either way.
    }
    setCsrfToken(null);
    setState({ kind: 'login' });
  };

  // The link in a reset or invitation mail opens this page, signed in or not.
  const where = useLocation();
  if (where.path === '/reset-password') {
    const done = (r: LoginResult) => void navigate('/', { replace: true, force: true }).then(() => loggedIn(r));
    return <ResetPasswordForm token={where.query.get('token') ?? ''} onDone={done} />;
  }
  if (where.path === '/forgot-password' && state.kind === 'login') return <ForgotPasswordForm />;

  switch (state.kind) {
    case 'loading':
      return (
        <div class="center">
          <Spinner />
        </div>
      );
    case 'unreachable':
      return (
        <AuthCard title={t('auth.unreachable')}>
          <ErrorBox error={state.error} />
          <button class="primary" onClick={() => void boot()}>
            {t('auth.tryAgain')}
          </button>
        </AuthCard>
      );
    case 'enrol':
      return (
        <AuthCard title={t('auth.enrolTitle')} intro={t('auth.enrolIntro')}>
          <TwoFactorPanel onContinue={() => void enter(state.user)} />
        </AuthCard>
      );
    case 'first-register':
      return <FirstRegisterForm onDone={loggedIn} />;
    case 'login':
      return (
        <>
          {state.notice && (
            <div class="banner" role="status">
              {state.notice}
            </div>
          )}
          <LoginForm onDone={loggedIn} email={state.email} />
        </>
      );
    case 'ready': {
      const app: AppState = {
        config: state.config,
        user: state.user,
        locale,
        handOver,
        setLocale: (l) => {
          sessionStorage.setItem(LOCALE_KEY, l);
          setLocaleState(l);
        },
        setUser: (user) => setState({ ...state, user: { ...state.user, ...user } }),
      };
      return (
        <AppContext.Provider value={app}>
          <Shell onLogout={() => void logout()} />
          <ConfirmHost />
          <Toasts />
        </AppContext.Provider>
      );
    }
  }
}

startTheme();
// The reader's language before the first paint: English is built in, another is one chunk away.
loadLanguage(preferredLanguage())
  .catch(() => loadLanguage('en'))
  .finally(() => render(<App />, document.getElementById('app')!));
