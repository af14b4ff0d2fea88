/**
 * What every resolver of one request shares: the operation context the HTTP wrapper built (who asks,
 * how they authenticated), the per-request loader of related documents, and what the response cache
 * must know afterwards (what was read, whether a rule looked at the request).
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { CMS } from '../cms.ts';
import type { Entity } from '../config/types.ts';
import type { OperationContext } from '../operation-context.ts';
import type { User } from '../config/types.ts';
import type { SessionClient } from '../auth/sessions.ts';
import { createRelatedLoader, type RelatedLoader } from './loader.ts';
import type { RichTextFormat } from '../richtext/convert-values.ts';

/** Who asks, as the HTTP layer authenticated them. */
export type Caller = {
  user: User | null;
  via: 'cookie' | 'bearer' | 'api-key' | null;
  token?: string;
  csrfToken?: string;
  scopes?: string[] | null;
  /** When the session or API key ends (ms). */
  expiresAt?: number;
};

/** What the sign-in mutations need from the transport: where the client is, and how sessions travel as cookies. */
export type SessionTransport = {
  client: SessionClient;
  ip: string | null;
  origin: string;
  /** Throws when a login comes from a page that may not sign a browser in. */
  checkLoginOrigin(): void;
  sessionCookies(token: string, csrfToken: string): string[];
  clearedCookies(): string[];
};

export type GraphQLRequest = {
  cms: CMS;
  ctx: OperationContext;
  credentials: Caller;
  transport: SessionTransport;
  loader: RelatedLoader;
  /** The context of each root field (its `locale`, `fallbackLocale`) by response key: nested relationships read in it. */
  roots: Map<string, OperationContext>;
  /** The `richText` format a root field asked for, by response key (src/graphql/rich-text.ts). */
  richText: Map<string, RichTextFormat>;
  /** Entities read at the root, whose dependencies decide when a kept answer is stale. */
  read: Set<Entity>;
  /** An answer about the session itself (me, login, …): never kept. */
  personal: boolean;
  /** Headers the answer must carry (a login's cookies). */
  headers: Headers;
};

export function createGraphQLRequest(
  cms: CMS,
  ctx: OperationContext,
  credentials: Caller,
  transport: SessionTransport,
): GraphQLRequest {
  return {
    cms,
    ctx,
    credentials,
    transport,
    loader: createRelatedLoader(),
    roots: new Map(),
    richText: new Map(),
    read: new Set(),
    personal: false,
    headers: new Headers(),
  };
}

type LocaleArgs = { locale?: string | null; fallbackLocale?: string | null; richText?: RichTextFormat | null };

/** A root field's context: the request's, in the locale the field asks for. */
export function rootContext(
  req: GraphQLRequest,
  info: GraphQLResolveInfo,
  args: LocaleArgs,
  entity?: Entity,
): OperationContext {
  const ctx: OperationContext = { ...req.ctx };
  if (args.locale) ctx.locale = args.locale;
  if (args.fallbackLocale !== undefined && args.fallbackLocale !== null)
    ctx.fallbackLocale = args.fallbackLocale === 'none' ? null : args.fallbackLocale;
  req.roots.set(info.path.key as string, ctx);
  if (args.richText) req.richText.set(info.path.key as string, args.richText);
  if (entity) req.read.add(entity);
  return ctx;
}

/** The context of the root field a nested resolver is under. */
export function contextAt(req: GraphQLRequest, info: GraphQLResolveInfo): OperationContext {
  let path = info.path;
  while (path.prev) path = path.prev;
  return req.roots.get(path.key as string) ?? req.ctx;
}

/** Whether any rule or hook of this request looked at the request itself (then its answer is not kept). */
export const readsRequest = (req: GraphQLRequest) =>
  Boolean(req.ctx.readsRequest) || [...req.roots.values()].some((ctx) => ctx.readsRequest);

/** GraphQL hands input objects over without a prototype; operations get plain JSON data, as from REST. */
export const plain = <T>(value: T): T =>
  value === undefined || value === null ? value : JSON.parse(JSON.stringify(value));
