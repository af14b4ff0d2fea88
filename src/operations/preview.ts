/**
 * Live preview (docs/drafts-and-versions.md): unsaved values merged over the pending draft (else the live document,
 * else defaults for a new one), presented like a read without validation, nothing saved; answered with
 * a URL carrying a preview token. A read with that token returns the current draft without login.
 */
import { richTextFormatOf } from '../richtext/convert-values.ts';
import { badRequest, notFound } from '../errors.ts';
import type { Entity, SanitizedCollection } from '../config/types.ts';
import { mergeLocalizedWrite } from '../fields/localize.ts';
import { documentOfDefaults } from '../fields/defaults.ts';
import { checkAccess } from '../access/check-access.ts';
import { withPendingDraft, pendingDraft } from '../versions/drafts.ts';
import { ownerOf, readLiveDoc } from '../versions/live-row.ts';
import { signPreviewToken, verifyPreviewToken, type PreviewSubject } from '../versions/preview-token.ts';
import { entityOf, loadForUpdate, type DocumentRef } from './steps/document-target.ts';
import { loadGlobal } from './steps/load-stored.ts';
import { presentDoc } from './steps/present.ts';
import { singleLocaleOf, type OperationContext } from '../operation-context.ts';
import { previewRelease } from './releases/preview-release.ts';
import { parseReleaseId } from './releases/load-release.ts';

type Doc = Record<string, unknown>;
/** `origin`: the API's own origin as the request reached it (src/http/client-ip.ts), for the fallback URL. */
/** `release`: a release id; the URL then carries `release=<id>` and that release's token (docs/releases.md). */
export type PreviewArgs = ({ collection: string; id?: number | string } | { global: string }) & {
  data: unknown;
  depth?: number;
  origin?: string;
  release?: unknown;
};

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function previewDocument(ctx: OperationContext, args: PreviewArgs): Promise<{ doc: Doc; url: string }> {
  const entity = entityOf(ctx, args);
  let base: Doc;
  let id: number | null = null;
  if ('collection' in args && args.id === undefined) {
    await checkAccess(ctx, entity, 'create', { data: isObject(args.data) ? args.data : undefined });
    base = defaultsOf(ctx, entity as SanitizedCollection);
  } else {
    const target = await loadForUpdate(ctx, args as DocumentRef);
    base = (entity.drafts ? await pendingDraft(ctx.cms.store, target.owner) : null) ?? target.live;
    if (entity.kind === 'collection') id = target.owner.parent;
  }
  const doc = await presentDoc(ctx, entity, mergeUnsaved(ctx, entity, base, args.data), args.depth ?? 1);
  const release = args.release === undefined ? null : await releasePreview(ctx, args.release);
  const token = release?.token ?? signPreviewToken(ctx.cms, { kind: entity.kind, slug: entity.slug, id });
  const target = entity.livePreview?.url
    ? await entity.livePreview.url({ doc, locale: ctx.locale ?? undefined })
    : apiReadURL(ctx, entity, id, args.origin);
  const url = release ? withQueryParam(String(target), 'release', String(release.id)) : String(target);
  return { doc, url: withQueryParam(url, 'preview', token) };
}

/** The token of the release a live preview shows (anyone who may read releases may ask for one). */
async function releasePreview(ctx: OperationContext, release: unknown): Promise<{ id: number; token: string }> {
  const id = parseReleaseId(release);
  return { id, token: (await previewRelease(ctx, id)).token };
}

/** Unsaved values over a stored document, in the request's locale; names that are not fields are ignored. Nothing is validated or saved. */
export function mergeUnsaved(ctx: OperationContext, entity: Entity, base: Doc, data: unknown): Doc {
  if (!isObject(data)) throw badRequest('The unsaved values must be a JSON object.', 'data');
  const values = Object.fromEntries(Object.entries(data).filter(([name]) => entity.fieldsByName.has(name)));
  return mergeLocalizedWrite(entity.fields, values, base, ctx.locale);
}

/** `GET …?preview=<token>`: the current draft (pending draft, else live) without login; a bad token is a 403. */
/** `richText`: the read's `richText=` format (src/richtext/convert-values.ts), as on any read. */
export async function readWithPreviewToken(
  ctx: OperationContext,
  ref: { collection: string; id: number } | { global: string },
  token: string,
  depth: number,
  richText?: unknown,
): Promise<Doc> {
  const format = richTextFormatOf(richText);
  const entity = entityOf(ctx, ref);
  const id = 'id' in ref ? ref.id : null;
  verifyPreviewToken(ctx.cms, token, { kind: entity.kind, slug: entity.slug, id } satisfies PreviewSubject);
  const live =
    entity.kind === 'global' ? await loadGlobal(ctx, entity) : await readLiveDoc(ctx.cms.store, ownerOf(entity, id!));
  if (!live) throw notFound('Document not found.');
  return presentDoc(
    ctx,
    entity,
    await withPendingDraft(ctx.cms.store, entity, live),
    depth,
    format ? { richText: format } : undefined,
  );
}

function defaultsOf(ctx: OperationContext, collection: SanitizedCollection): Doc {
  const locale = singleLocaleOf(ctx);
  const doc: Doc = { id: null, ...documentOfDefaults(collection.fields, { user: ctx.user, locale }, locale ?? null) };
  if (collection.drafts) doc.status = 'draft';
  doc.createdAt = null;
  doc.updatedAt = null;
  return doc;
}

/** The API read URL of the document (of the collection for a new one): absolute with serverURL, else on the request's origin. */
function apiReadURL(ctx: OperationContext, entity: Entity, id: number | null, requestOrigin = ''): string {
  const { serverURL, routes } = ctx.cms.config;
  const origin = serverURL ? serverURL.replace(/\/+$/, '') : requestOrigin;
  const path = entity.kind === 'global' ? `/globals/${entity.slug}` : `/${entity.slug}${id === null ? '' : `/${id}`}`;
  return `${origin}${routes.api}${path}`;
}

function withQueryParam(url: string, name: string, value: string): string {
  const hash = url.indexOf('#');
  const [head, tail] = hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  return `${head}${head.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}${tail}`;
}
