/**
 * What one subscriber is told about one logged change: the document exactly as that subscriber would
 * read it through REST at that moment (the same operation, its own context: access rules, field access,
 * drafts, locale, depth, preview token), or nothing when it may not read it. Subscribers asking the same
 * way (same caller, as the response cache tells callers apart, and the same options) share one read.
 */
import type { OperationContext } from '../operation-context.ts';
import { findByID } from '../operations/find-by-id.ts';
import { findGlobal } from '../operations/globals.ts';
import { APIError } from '../errors.ts';
import type { LoggedChange } from './change-log.ts';
import { couldRead } from './deleted-visibility.ts';

export type ReadOptions = { draft: boolean; depth: number; preview?: string };

/** Nothing to tell: the subscriber may not read the document (or it is gone by now). */
export const HIDDEN = Symbol('hidden');
export type View = Record<string, unknown> | null | typeof HIDDEN;

export type Viewer = {
  ctx: OperationContext;
  options: ReadOptions;
  key: string;
  /** Whom the per-client bounds count the stream for (./stream-limits.ts). */
  owner: string;
  /** When its credentials end (ms by `cms.clock`); null when they do not, or there are none. */
  expiresAt: number | null;
  /**
   * Looks its credentials up again (after users, sessions or keys changed anywhere, and at `expiresAt`):
   * the viewer they give now, or null when they no longer hold. Absent for a stream without credentials.
   */
  recheck?: (shared: SharedLookUp) => Promise<Viewer | null>;
};

/** Runs `lookUp` once per `id` in one check, for every stream opened with the same credentials. */
export type SharedLookUp = <T>(id: string, lookUp: () => Promise<T>) => Promise<T>;

export function viewerKey(
  ctx: OperationContext,
  options: ReadOptions,
  scopes: readonly string[] | null | undefined,
): string {
  const user = ctx.user ? `${ctx.user.id}:${Bun.hash(JSON.stringify(ctx.user)).toString(36)}` : 'anonymous';
  return JSON.stringify([user, scopes ?? null, ctx.locale, ctx.fallbackLocale, options]);
}

/** Whether a save that changed only the pending draft concerns this viewer. */
export const seesDrafts = (viewer: Viewer) => viewer.options.draft || viewer.options.preview !== undefined;

export async function viewOf(
  viewer: Viewer,
  change: LoggedChange,
  log: { error(...a: unknown[]): void },
): Promise<View> {
  const { ctx, options } = viewer;
  try {
    if (change.type === 'delete') {
      const collection = ctx.cms.config.collectionsBySlug.get(change.slug);
      const doc = change.deleted ? (JSON.parse(change.deleted) as Record<string, unknown>) : null;
      return collection && doc && (await couldRead(ctx, collection, change.docId, doc)) ? null : HIDDEN;
    }
    const shape = { depth: options.depth, draft: options.draft, preview: options.preview };
    return change.kind === 'global'
      ? await findGlobal(ctx, { slug: change.slug, ...shape })
      : await findByID(ctx, { collection: change.slug, id: change.docId, ...shape });
  } catch (error) {
    if (!(error instanceof APIError && error.status < 500))
      log.error('realtime: reading a changed document failed:', error);
    return HIDDEN;
  }
}
