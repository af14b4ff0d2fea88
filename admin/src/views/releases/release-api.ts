/** The release routes (docs/releases.md): records, their items, publishing, scheduling, revert and preview. */
import { api, queryString, type ListResult } from '../../api.ts';

export type ReleaseStatus = 'open' | 'scheduled' | 'published' | 'failed';
export type ReleaseAction = 'publish' | 'unpublish';

export interface ReleaseItem {
  id: number | string;
  collection?: string;
  global?: string;
  document?: number | string;
  action: ReleaseAction;
  version: number | string | null;
  title: string;
  changedSinceAdded: boolean;
}

/** One problem found when a release was checked for publishing, naming its item. */
export interface ReleaseError {
  item?: number | string;
  collection?: string;
  global?: string;
  document?: number | string;
  message: string;
  field?: string;
}

export interface Release {
  id: number | string;
  title: string;
  description: string | null;
  status: ReleaseStatus;
  publishAt: string | null;
  publishedAt: string | null;
  errors: ReleaseError[] | null;
  revertOf: number | string | null;
  items: ReleaseItem[];
  createdAt: string;
  updatedAt: string;
}

/** What an item is about: `{ collection, id }` or `{ global }`. */
export type ReleaseTarget = { collection: string; id: string | number } | { global: string };

const path = (id: number | string, rest = '') => `/releases/${encodeURIComponent(String(id))}${rest}`;
type Answer = { doc: Release };

export const releases = {
  list: (q: { page?: number; limit?: number; where?: Record<string, unknown> } = {}) =>
    api<ListResult<Release>>('GET', `/releases${queryString({ limit: 20, ...q })}`),
  get: (id: number | string) => api<Release>('GET', path(id)),
  create: (data: { title: string; description?: string }) => api<Answer>('POST', '/releases', data),
  remove: (id: number | string) => api<Answer>('DELETE', path(id)),
  addItem: (id: number | string, target: ReleaseTarget, action: ReleaseAction) =>
    api<Answer>('POST', path(id, '/items'), { ...target, action }),
  removeItem: (id: number | string, item: number | string) =>
    api<Answer>('DELETE', path(id, `/items/${encodeURIComponent(String(item))}`)),
  publish: (id: number | string) => api<Answer>('POST', path(id, '/publish')),
  schedule: (id: number | string, at: string) => api<Answer>('POST', path(id, '/schedule'), { at }),
  unschedule: (id: number | string) => api<Answer>('POST', path(id, '/unschedule')),
  revert: (id: number | string) => api<Answer>('POST', path(id, '/revert')),
  /** A token that lets a site read this release's changes (one hour). */
  preview: (id: number | string) => api<{ token: string; expiresAt: string }>('POST', path(id, '/preview')),
};

/** An item's document as the version routes name it. */
export const itemTarget = (item: ReleaseItem): ReleaseTarget =>
  item.global ? { global: item.global } : { collection: item.collection!, id: item.document! };
