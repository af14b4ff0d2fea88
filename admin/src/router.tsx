/**
 * History routing below the admin mount (`/admin/collections/posts/3`). The server answers index.html for
 * unknown paths, so every route survives a reload. A leave guard (unsaved changes) can hold up navigation.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { runtime } from './api.ts';

export interface Location {
  /** Below the admin mount: `/`, `/collections/posts`. */
  path: string;
  query: URLSearchParams;
}

function currentLocation(): Location {
  const p = location.pathname;
  const rest = p.startsWith(runtime.adminPrefix) ? p.slice(runtime.adminPrefix.length) : p;
  return { path: rest === '' ? '/' : rest, query: new URLSearchParams(location.search) };
}

/** Asked before leaving a page with unsaved changes; resolves to true to leave. */
type LeaveGuard = () => Promise<boolean>;
let guard: LeaveGuard | null = null;
let lastURL = location.pathname + location.search;

export function setLeaveGuard(g: LeaveGuard | null): void {
  guard = g;
}

function announce() {
  lastURL = location.pathname + location.search;
  dispatchEvent(new Event('cms:navigate'));
}

/** Asks the leave guard, if any; true when leaving is fine. */
export async function canLeave(): Promise<boolean> {
  return !guard || guard();
}

/** Goes to `to` (below the admin mount, may carry `?query`); false when the user chose to stay. */
export async function navigate(to: string, options: { replace?: boolean; force?: boolean } = {}): Promise<boolean> {
  if (guard && !options.force && !(await guard())) return false;
  const url = runtime.adminPrefix + to;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  announce();
  scrollTo(0, 0);
  return true;
}

/** Sets or removes (null or empty) the given keys of the current query and replaces it in place. */
export function updateQuery(current: URLSearchParams, changes: Record<string, string | null>): void {
  const next = new URLSearchParams(current);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') next.delete(k);
    else next.set(k, v);
  }
  replaceQuery(next);
}

/** Rewrites the query of the current address without a new history entry (list state: page, sort, search). */
export function replaceQuery(query: URLSearchParams): void {
  const s = query.toString();
  history.replaceState(null, '', location.pathname + (s ? `?${s}` : ''));
  announce();
}

addEventListener('popstate', () => {
  if (!guard) return announce();
  // Back/forward already moved; put the old address back until the user decides.
  const target = location.pathname + location.search;
  history.pushState(null, '', lastURL);
  void guard().then((leave) => {
    if (!leave) return;
    history.replaceState(null, '', target);
    announce();
  });
});

export function useLocation(): Location {
  const [loc, setLoc] = useState(currentLocation);
  useEffect(() => {
    const on = () => setLoc(currentLocation());
    addEventListener('cms:navigate', on);
    return () => removeEventListener('cms:navigate', on);
  }, []);
  return loc;
}

export function Link(props: {
  to: string;
  class?: string;
  children: ComponentChildren;
  'aria-current'?: 'page' | undefined;
  'aria-label'?: string;
  title?: string;
  draggable?: boolean;
  onDragStart?: (e: DragEvent) => void;
}) {
  const { to, children, ...rest } = props;
  return (
    <a
      {...rest}
      href={runtime.adminPrefix + to}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        void navigate(to);
      }}
    >
      {children}
    </a>
  );
}
