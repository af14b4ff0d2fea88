/**
 * Reads with `release=<id>[,<id>…]` (docs/releases.md): the answer as if those releases were published on
 * top of the live data, in the order given (a later release wins for a document in both). Allowed for
 * signed-in callers, under the read rules of what they read, or with `preview=<token>` from
 * `POST /releases/:id/preview`: for that one release alone, acting as the caller who asked for the token.
 * A published release adds nothing: what it published is the live data already.
 */
import { badRequest, forbidden, notFound, unauthorized } from '../../errors.ts';
import type { Entity, SanitizedCollection, SanitizedGlobal } from '../../config/types.ts';
import { loadUser } from '../../auth/load-user.ts';
import { previewItems, releaseStatuses } from '../../releases/store.ts';
import { verifyPreviewToken } from '../../versions/preview-token.ts';
import { releaseSource, type ReleaseOverlay } from '../../versions/release-source.ts';
import { findVersion } from '../../versions/store.ts';
import { ownerOf } from '../../versions/live-row.ts';
import type { SQLPart } from '../../db/store.ts';
import { deriveContext, type OperationContext } from '../../operation-context.ts';

type Doc = Record<string, unknown>;

/** How many releases one read may stack. */
export const MAX_STACKED_RELEASES = 10;

/** What a read asks for: `release` as sent (ids, comma-separated or a list) and the `preview` token, if any. */
export type ReleaseArgs = { release?: unknown; preview?: string };

/** The releases a read applies, in order, and the context it reads with (the token's issuer, with a token). */
export type OpenedReleases = { ids: number[]; ctx: OperationContext };

function parseReleaseList(value: unknown): number[] {
  const parts = (Array.isArray(value) ? value : String(value).split(',')).map((p) => String(p).trim());
  const invalid = () => badRequest('"release" must be release ids separated by commas.', 'release');
  if (parts.length === 0 || parts.some((p) => !/^\d{1,15}$/.test(p))) throw invalid();
  const ids = parts.map(Number);
  if (ids.some((id) => id < 1)) throw invalid();
  if (ids.length > MAX_STACKED_RELEASES)
    throw badRequest(`At most ${MAX_STACKED_RELEASES} releases can be previewed together.`, 'release');
  return ids;
}

/** The caller a release token reads as: its issuer, still active, narrowed to the key's scopes it was made with. */
async function tokenReader(ctx: OperationContext, ids: number[], token: string): Promise<OperationContext> {
  if (ids.length !== 1) throw forbidden('A preview token opens one release only.');
  const issuer = verifyPreviewToken(ctx.cms, token, { kind: 'release', slug: '', id: ids[0] });
  const user = issuer.user === null ? null : await loadUser(ctx.cms, issuer.user);
  if (issuer.user !== null && !user) throw forbidden('The preview token is no longer valid.');
  return deriveContext(ctx, { user, scopes: issuer.scopes, overrideAccess: false, apiKey: null });
}

/** Checks who may preview, and which of the releases apply (404 for an unknown one). */
export async function openReleases(ctx: OperationContext, args: ReleaseArgs): Promise<OpenedReleases> {
  if (!ctx.cms.config.releases) throw notFound('Releases are not enabled.');
  const ids = parseReleaseList(args.release);
  let reader = ctx;
  if (args.preview !== undefined) reader = await tokenReader(ctx, ids, args.preview);
  else if (!ctx.user && !ctx.overrideAccess) throw unauthorized();
  const statuses = new Map((await releaseStatuses(ctx.cms.store, ids)).map((r) => [Number(r.id), r.status]));
  const unknown = ids.find((id) => !statuses.has(id));
  if (unknown !== undefined) throw notFound(`Release ${unknown} not found.`);
  return { ids: ids.filter((id) => statuses.get(id) !== 'published'), ctx: reader };
}

/** What the releases do to the documents of one collection (or the global): the later release wins. */
async function overlayOf(ctx: OperationContext, entity: Entity, ids: number[]): Promise<ReleaseOverlay> {
  const overlay: ReleaseOverlay = { publish: new Map(), unpublish: new Set() };
  if (!entity.drafts || ids.length === 0) return overlay;
  const items = await previewItems(ctx.cms.store, ids, entity.kind, entity.slug);
  const rank = new Map(ids.map((id, i) => [id, i]));
  items.sort((a, b) => rank.get(Number(a.release))! - rank.get(Number(b.release))!);
  for (const item of items) {
    const parent = Number(item.parent);
    overlay.publish.delete(parent);
    overlay.unpublish.delete(parent);
    if (item.action === 'unpublish') overlay.unpublish.add(parent);
    else if (item.version !== null) overlay.publish.set(parent, Number(item.version));
  }
  return overlay;
}

/** The rows a list, count or read by id reads: the collection's table (null) when the releases leave it alone. */
export async function releaseRows(
  ctx: OperationContext,
  collection: SanitizedCollection,
  ids: number[],
): Promise<SQLPart | null> {
  const overlay = await overlayOf(ctx, collection, ids);
  if (overlay.publish.size === 0 && overlay.unpublish.size === 0) return null;
  return releaseSource(ctx.cms.store.dialect, collection, overlay);
}

/** The stored global as the releases would leave it. */
export async function globalWithReleases(
  ctx: OperationContext,
  global: SanitizedGlobal,
  stored: Doc,
  ids: number[],
): Promise<Doc> {
  const overlay = await overlayOf(ctx, global, ids);
  const owner = ownerOf(global);
  if (overlay.unpublish.has(owner.parent)) return { ...stored, status: 'draft' };
  const pinned = overlay.publish.get(owner.parent);
  const version = pinned === undefined ? undefined : await findVersion(ctx.cms.store, owner, pinned);
  if (!version) return stored;
  const { id: _id, ...fields } = JSON.parse(version.version) as Doc;
  return { ...stored, ...fields, status: 'published' };
}
