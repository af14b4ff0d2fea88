/** What every view may read: the admin config, the logged-in user, the chosen locale, the page hand-over. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { AdminConfig, CollectionConfig, User } from './api.ts';
import type { HandOver } from './form/prefill.ts';

export interface AppState {
  config: AdminConfig;
  user: User;
  /** The content locale being viewed and edited, or undefined without localization. */
  locale: string | undefined;
  setLocale: (locale: string) => void;
  /** What a page hands to the next one it opens (pre-filled values, the note after a create). */
  handOver: HandOver;
  setUser: (user: User) => void;
}

export const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const s = useContext(AppContext);
  if (!s) throw new Error('useApp outside the shell');
  return s;
}

export function findCollection(config: AdminConfig, slug: string | undefined): CollectionConfig | undefined {
  return slug ? config.collections.find((c) => c.slug === slug) : undefined;
}

export const isAdmin = (u: User) => u.role === 'admin';

/**
 * Whether to offer create/delete. Only the built-in rule is known here (users: admins only); for other
 * collections the server decides and the form shows its 403.
 */
export const mayManage = (c: CollectionConfig, u: User) => c.builtIn !== 'users' || isAdmin(u);

/** The collections the nav and the dashboard list: API keys only for admins. */
export function visibleCollections(config: AdminConfig, user: User): CollectionConfig[] {
  return config.collections.filter((c) => c.builtIn !== 'api-keys' || isAdmin(user));
}

export function collectionIcon(c: CollectionConfig): string {
  return c.builtIn === 'media' ? 'image' : c.builtIn === 'users' ? 'users' : c.builtIn === 'api-keys' ? 'key' : 'doc';
}
