/** What every operation receives: the instance and who is asking, in which locale. Plain data. */
import type { User } from './config/types.ts';
import type { CMS } from './cms.ts';
import type { Via, WriteOrigin } from './events/change-events.ts';

/** How many related documents a request may still populate (src/operations/steps/document-budget.ts). */
export type DocumentBudget = { limit: number; used: number };

export type OperationContext = {
  cms: CMS;
  user: User | null;
  /** Skip access rules (the Local API's default; REST never sets it). */
  overrideAccess: boolean;
  locale: string | null;
  fallbackLocale: string | null;
  /** API-key scopes narrowing the user's rights; null for sessions. */
  scopes?: string[] | null;
  /** Return hidden fields (Local API only). */
  showHiddenFields?: boolean;
  req?: Request;
  /** The API's own origin as the request reached it (serverURL when set): the base of links in mails. */
  origin?: string;
  /**
   * Set when a rule or hook looked at `req` (withRequest): the answer may depend on more than the
   * response cache's key (headers, the time, other collections), so the cache must not keep it.
   */
  readsRequest?: boolean;
  /** Which transport built this context (the audit log's `via`): set by each transport, `local` by default. */
  via: Via;
  /** The caller's address as the transport saw it (REST, MCP), else null. */
  ip?: string | null;
  /** The id of the API key the caller sent, if any. */
  apiKey?: number | null;
  /** The related documents this request may still populate (src/operations/steps/document-budget.ts); none: unbounded. */
  documents?: DocumentBudget;
  /** What a write is recorded as in the audit log when it is not the change's own kind (restore). */
  auditAction?: string;
};

export function createContext(cms: CMS, overrides: Partial<OperationContext> = {}): OperationContext {
  const l10n = cms.config.localization;
  return {
    cms,
    user: null,
    overrideAccess: false,
    locale: l10n ? l10n.defaultLocale : null,
    fallbackLocale: l10n && l10n.fallback ? l10n.defaultLocale : null,
    scopes: null,
    via: 'local',
    ...overrides,
  };
}

/**
 * A copy of `ctx` with some of its parts changed (another caller, locale or rights) for a step of the same
 * request. A look at the request through the copy marks the original, which the response cache reads
 * before keeping an answer.
 */
export function deriveContext(ctx: OperationContext, changes: Partial<OperationContext>): OperationContext {
  const copy = { ...ctx, ...changes };
  return Object.defineProperty(copy, 'readsRequest', {
    enumerable: true,
    get: () => ctx.readsRequest,
    set(value: boolean | undefined) {
      ctx.readsRequest = value;
    },
  });
}

/** Who is writing, as plain data for the change's transaction (src/audit). */
export function originOf(ctx: OperationContext): WriteOrigin {
  const origin: WriteOrigin = {
    user: ctx.user?.id ?? null,
    apiKey: ctx.apiKey ?? null,
    via: ctx.via,
    ip: ctx.ip ?? null,
  };
  if (ctx.auditAction) origin.action = ctx.auditAction;
  return origin;
}

/** Who a write is recorded as (a version's `author`): the user's id, or null for the system. */
export function stampOf(ctx: OperationContext, now: string): { now: string; author: number | null } {
  return { now, author: ctx.user?.id ?? null };
}

export function localeOf(ctx: OperationContext) {
  return ctx.locale ? { locale: ctx.locale, fallbackLocale: ctx.fallbackLocale } : null;
}

/** The one locale a whole-document check or a default is in: the request's, else the default (undefined without localization). */
export function singleLocaleOf(ctx: OperationContext): string | undefined {
  return ctx.locale && ctx.locale !== 'all' ? ctx.locale : ctx.cms.config.localization?.defaultLocale;
}

/**
 * A rule's or hook's arguments with `req` behind a getter, so that looking at the request (even by
 * destructuring it) marks the answer as one the response cache must not keep (docs/caching.md).
 */
export function withRequest<T extends object>(
  ctx: OperationContext,
  args: T,
  req: unknown = ctx.req,
): T & { req: any } {
  return Object.defineProperty(args, 'req', {
    enumerable: true,
    get() {
      ctx.readsRequest = true;
      return req;
    },
  }) as T & { req: any };
}
