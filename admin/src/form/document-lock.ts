/**
 * Editing together: the editor takes the document's lock when it opens, renews it while open, and
 * releases it on leaving. When someone else holds it the form is read-only and names them; taking over
 * asks first. An editor whose lock was taken over can no longer edit (the form turns read-only; their typing
 * stays in the unsaved-edits store) and learns it at once when the taker is another tab of this browser (the
 * tabs tell each other over a BroadcastChannel), else within seconds: a held lock is looked at every few
 * seconds (a cheap read, also when the tab comes back into view), besides the heartbeat and the 409 of a
 * save. docs/admin.md, "Editing together".
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, currentCsrf, locks, runtime, type DocumentOwner, type LockInfo } from '../api.ts';

const HEARTBEAT_MS = 60_000;
/** How often a held lock is checked for a takeover. */
const WATCH_MS = 4_000;

export type LockState =
  | { status: 'none' } // no lock yet, or the server offers none (a new document, an older server)
  | { status: 'mine' }
  | { status: 'other'; holder: LockInfo['user'] }
  /** `elsewhere`: taken by another tab of this browser (the same user). */
  | { status: 'lost'; holder: LockInfo['user']; elsewhere?: boolean };

export interface DocumentLock {
  state: LockState;
  /** Sent with every save so a save after a takeover is refused. */
  token: string | null;
  takeOver: () => Promise<void>;
}

const lockUrl = (o: DocumentOwner) =>
  runtime.apiPrefix +
  ('global' in o
    ? `/globals/${encodeURIComponent(o.global)}/lock`
    : `/${encodeURIComponent(o.collection)}/${encodeURIComponent(String(o.id))}/lock`);

/** What a tab says when it takes a lock: the lock's address (the same in every tab) and its new token. */
type Taken = { lock: string; token: string; holder: LockInfo['user'] };

let channel: BroadcastChannel | null | undefined;
/** The tabs of this browser (same origin), or null where BroadcastChannel is missing. */
function otherTabs(): BroadcastChannel | null {
  if (channel === undefined)
    channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('cms-document-locks');
  return channel;
}

/** Releases on tab close too: a keepalive request outlives the page. */
function releaseOnExit(o: DocumentOwner, token: string): void {
  const headers: Record<string, string> = { 'x-cms-lock-token': token };
  const csrf = currentCsrf();
  if (csrf) headers['x-csrf-token'] = csrf;
  void fetch(lockUrl(o), { method: 'DELETE', headers, credentials: 'same-origin', keepalive: true }).catch(() => {});
}

/**
 * `me` is the logged-in user's id: a lock they hold themselves (another tab, or a page left behind when
 * their session ended) is taken over without asking, as Payload does.
 */
export function useDocumentLock(owner: DocumentOwner | null, me: string | number): DocumentLock {
  const [state, setState] = useState<LockState>({ status: 'none' });
  const token = useRef<string | null>(null);
  const key = owner ? JSON.stringify(owner) : '';

  /** Keeps a new token and tells the other tabs, so one that held the lock stops editing at once. */
  const hold = (o: DocumentOwner, lock: LockInfo) => {
    if (!lock.token || lock.token === token.current) return;
    token.current = lock.token;
    otherTabs()?.postMessage({ lock: lockUrl(o), token: lock.token, holder: lock.user } satisfies Taken);
  };

  const holderNow = async (o: DocumentOwner): Promise<LockInfo['user']> =>
    (await locks.read(o).catch(() => ({ lock: null }))).lock?.user ?? null;

  /** Take (or renew) the lock; someone else holding it shows who, a lost one says so. */
  const claim = async (o: DocumentOwner, alive: () => boolean) => {
    try {
      const r = await locks.take(o, token.current);
      if (!alive()) return;
      hold(o, r.lock);
      setState({ status: 'mine' });
    } catch (e) {
      if (!alive()) return;
      if (e instanceof ApiError && e.status === 409) {
        const holder = await holderNow(o);
        if (!alive()) return;
        if (!token.current && holder && String(holder.id) === String(me)) {
          const r = await locks.take(o, null, true).catch(() => null);
          if (!alive() || !r) return;
          hold(o, r.lock);
          return setState({ status: 'mine' });
        }
        setState(token.current ? { status: 'lost', holder } : { status: 'other', holder });
      }
      // Anything else (offline, no lock routes): carry on unlocked; the next heartbeat tries again.
    }
  };

  useEffect(() => {
    if (!owner) return setState({ status: 'none' });
    let live = true;
    const alive = () => live;
    token.current = null;
    void claim(owner, alive);
    const beat = setInterval(() => {
      // Someone else's lock is only watched: when it lapses or is released, this editor takes it.
      setState((s) => {
        if (s.status !== 'lost') void claim(owner, alive);
        return s;
      });
    }, HEARTBEAT_MS);
    /** A held lock that the server no longer counts as ours was taken over: say so now, not at the next save. */
    const watch = async () => {
      if (!token.current || document.visibilityState === 'hidden') return;
      const r = await locks.read(owner, token.current).catch(() => null);
      if (!alive() || !r?.lock || r.lock.mine) return;
      const holder = r.lock.user;
      setState((s) => (s.status === 'mine' ? { status: 'lost', holder } : s));
    };
    const watching = setInterval(() => void watch(), WATCH_MS);
    const onTaken = (e: MessageEvent<Taken>) => {
      if (e.data?.lock !== lockUrl(owner) || !token.current || e.data.token === token.current) return;
      const holder = e.data.holder;
      setState((s) => (s.status === 'mine' ? { status: 'lost', holder, elsewhere: true } : s));
    };
    otherTabs()?.addEventListener('message', onTaken);
    const onVisible = () => void watch();
    document.addEventListener('visibilitychange', onVisible);
    const exit = () => token.current && releaseOnExit(owner, token.current);
    addEventListener('pagehide', exit);
    return () => {
      live = false;
      clearInterval(beat);
      clearInterval(watching);
      otherTabs()?.removeEventListener('message', onTaken);
      document.removeEventListener('visibilitychange', onVisible);
      removeEventListener('pagehide', exit);
      if (token.current) releaseOnExit(owner, token.current);
      token.current = null;
    };
  }, [key]);

  return {
    state,
    get token() {
      return token.current;
    },
    takeOver: async () => {
      if (!owner) return;
      const r = await locks.take(owner, null, true);
      hold(owner, r.lock);
      setState({ status: 'mine' });
    },
  };
}
