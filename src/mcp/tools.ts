/**
 * The MCP tools (docs/mcp.md). Each runs the operation REST runs for the same caller, so access rules,
 * hooks, validation, drafts, versions, webhooks and the audit log behave as they do over REST. On drafts
 * collections and globals `create` and `update` save drafts only; publishing, unpublishing, scheduling and
 * deleting are separate tools that need the `mcp:publish` scope (or an admin session).
 */
import { MEDIA_SLUG } from '../config/builtin-collections.ts';
import type { Entity, SanitizedCollection } from '../config/types.ts';
import { APIError } from '../errors.ts';
import { deriveContext, type OperationContext } from '../operation-context.ts';
import * as operations from '../operations/index.ts';
import { getCollection, getGlobal } from '../operations/steps/entities.ts';
import { stageLocalFile } from '../uploads/staging.ts';
import { describeSite } from './describe.ts';
import { mayPublish, needsPublishRight } from './publish-right.ts';
import { mayWriteOverMCP } from './write-targets.ts';
import { createRelease } from '../operations/releases/create-release.ts';
import { findReleases } from '../operations/releases/find-releases.ts';
import { addReleaseItem } from '../operations/releases/release-items.ts';
import { publishRelease } from '../operations/releases/publish-release.ts';
import { id, object, optionalInteger, optionalText, optionalWhere, text, type Args } from './tool-arguments.ts';

export type Tool = {
  name: string;
  publishes?: boolean;
  run(ctx: OperationContext, args: Args): Promise<Record<string, unknown>>;
};

/** The locale and drafts options every read and write tool takes. */
function withLocale(ctx: OperationContext, args: Args): OperationContext {
  const locale = optionalText(args, 'locale');
  if (!locale) return ctx;
  const { localization } = ctx.cms.config;
  if (!localization || (locale !== 'all' && !localization.locales.includes(locale)))
    throw new APIError(
      400,
      `"locale" must be one of ${[...(localization?.locales ?? []), 'all'].join(', ')}.`,
      'locale',
    );
  return deriveContext(ctx, { locale });
}

/** A drafts entity's `status` is the publish tool's business: create and update never set it. */
function draftData(entity: Entity, data: Record<string, unknown>): Record<string, unknown> {
  if (!entity.drafts) return data;
  const { status: _s, _status: _a, ...rest } = data;
  return rest;
}

const collectionOf = (ctx: OperationContext, args: Args) => getCollection(ctx.cms, text(args, 'collection'));

function writableCollectionOf(ctx: OperationContext, slug: string): SanitizedCollection {
  const collection = getCollection(ctx.cms, slug);
  if (!mayWriteOverMCP(collection))
    throw new APIError(
      403,
      `MCP does not write ${collection.slug}; use the admin for accounts and API keys.`,
      'collection',
    );
  return collection;
}
const depthOf = (args: Args) => Math.min(optionalInteger(args, 'depth') ?? 0, 3);
const refOf = (ctx: OperationContext, args: Args): { global: string } | { collection: string; id: number } =>
  args.global !== undefined
    ? { global: text(args, 'global') }
    : { collection: writableCollectionOf(ctx, text(args, 'collection')).slug, id: id(args) };

/**
 * Moving a document into the trash takes it from readers, and taking it out puts it back: a delete and a
 * publish, which need the publish right whichever tool asks for them.
 */
function assertMayMoveTrash(ctx: OperationContext, collection: SanitizedCollection, data: Record<string, unknown>) {
  if (collection.trash && 'deletedAt' in data && !mayPublish(ctx))
    throw needsPublishRight('Moving a document into or out of the trash');
}

/** The collection's title field, which `search` matches until full-text search is available. */
function titleField(ctx: OperationContext, slug: string): string {
  const collection = getCollection(ctx.cms, slug);
  const named = collection.admin?.useAsTitle as string | undefined;
  if (named && named !== 'id') return named;
  return collection.fields.find((f) => (f.type === 'text' || f.type === 'textarea') && !f.hidden)?.name ?? 'id';
}

export const TOOLS: Tool[] = [
  { name: 'describe', run: async (ctx) => describeSite(ctx) },
  {
    name: 'find',
    run: (ctx, args) =>
      operations.find(withLocale(ctx, args), {
        collection: collectionOf(ctx, args).slug,
        where: optionalWhere(args),
        sort: optionalText(args, 'sort'),
        limit: optionalInteger(args, 'limit') ?? 10,
        page: optionalInteger(args, 'page') ?? 1,
        depth: depthOf(args),
        draft: args.draft === true,
      }),
  },
  {
    name: 'find_by_id',
    run: (ctx, args) =>
      operations.findByID(withLocale(ctx, args), {
        collection: collectionOf(ctx, args).slug,
        id: id(args),
        depth: depthOf(args),
        draft: args.draft === true,
      }),
  },
  {
    name: 'count',
    run: (ctx, args) =>
      operations.count(ctx, {
        collection: collectionOf(ctx, args).slug,
        where: optionalWhere(args),
        draft: args.draft === true,
      }),
  },
  {
    // The collection's full-text index (docs/search.md) when it has one, best match first; else every word in its title field.
    name: 'search',
    run: (ctx, args) => {
      const collection = collectionOf(ctx, args);
      const query = text(args, 'query');
      const paging = {
        limit: optionalInteger(args, 'limit') ?? 10,
        page: optionalInteger(args, 'page') ?? 1,
        depth: 0,
        draft: args.draft === true,
      };
      if (collection.search)
        return operations.find(withLocale(ctx, args), { collection: collection.slug, search: query, ...paging });
      return operations.find(withLocale(ctx, args), {
        collection: collection.slug,
        where: { [titleField(ctx, collection.slug)]: { like: query } },
        ...paging,
      });
    },
  },
  {
    name: 'create',
    run: async (ctx, args) => {
      const collection = writableCollectionOf(ctx, text(args, 'collection'));
      const doc = await operations.create(withLocale(ctx, args), {
        collection: collection.slug,
        data: draftData(collection, object(args, 'data')),
        draft: collection.drafts,
        depth: 0,
      });
      return { doc, message: collection.drafts ? 'Saved as a draft; publish it with the publish tool.' : 'Created.' };
    },
  },
  {
    name: 'update',
    run: async (ctx, args) => {
      const collection = writableCollectionOf(ctx, text(args, 'collection'));
      const data = object(args, 'data');
      assertMayMoveTrash(ctx, collection, data);
      const doc = await operations.update(withLocale(ctx, args), {
        collection: collection.slug,
        id: id(args),
        data: draftData(collection, data),
        draft: collection.drafts,
        depth: 0,
        // A restore names a document in the trash.
        trash: 'deletedAt' in data,
      });
      return {
        doc,
        message: collection.drafts ? 'Saved as a draft; the live document is unchanged until published.' : 'Updated.',
      };
    },
  },
  {
    name: 'duplicate',
    run: async (ctx, args) => {
      const collection = writableCollectionOf(ctx, text(args, 'collection'));
      const doc = await operations.duplicate(withLocale(ctx, args), {
        collection: collection.slug,
        id: id(args),
        data: args.data === undefined ? undefined : draftData(collection, object(args, 'data')),
        depth: 0,
      });
      return { doc, message: collection.drafts ? 'Copied as a draft; publish it with the publish tool.' : 'Copied.' };
    },
  },
  {
    name: 'delete',
    publishes: true,
    run: async (ctx, args) => ({
      doc: await operations.deleteDocument(ctx, {
        collection: writableCollectionOf(ctx, text(args, 'collection')).slug,
        id: id(args),
        depth: 0,
      }),
      message: 'Deleted.',
    }),
  },
  {
    name: 'publish',
    publishes: true,
    run: async (ctx, args) => {
      const ref = refOf(ctx, args);
      const data = { status: 'published' };
      const doc =
        'global' in ref
          ? await operations.updateGlobal(ctx, { slug: getGlobal(ctx.cms, ref.global).slug, data, depth: 0 })
          : await operations.update(ctx, {
              collection: getCollection(ctx.cms, ref.collection).slug,
              id: ref.id,
              data,
              depth: 0,
            });
      return { doc, message: 'Published.' };
    },
  },
  {
    name: 'unpublish',
    publishes: true,
    run: async (ctx, args) => ({
      doc: await operations.unpublish(ctx, { ...refOf(ctx, args), depth: 0 }),
      message: 'Unpublished.',
    }),
  },
  {
    name: 'schedule',
    publishes: true,
    run: async (ctx, args) => ({
      doc: await operations.scheduleAction(ctx, { ...refOf(ctx, args), action: args.action, at: args.at }),
      message: 'Scheduled.',
    }),
  },
  {
    name: 'find_global',
    run: (ctx, args) =>
      operations.findGlobal(withLocale(ctx, args), {
        slug: getGlobal(ctx.cms, text(args, 'global')).slug,
        depth: depthOf(args),
        draft: args.draft === true,
      }),
  },
  {
    name: 'update_global',
    run: async (ctx, args) => {
      const global = getGlobal(ctx.cms, text(args, 'global'));
      const doc = await operations.updateGlobal(withLocale(ctx, args), {
        slug: global.slug,
        data: draftData(global, object(args, 'data')),
        draft: global.drafts,
        depth: 0,
      });
      return { doc, message: global.drafts ? 'Saved as a draft; publish it with the publish tool.' : 'Saved.' };
    },
  },
  {
    name: 'upload',
    run: async (ctx, args) => {
      const filename = text(args, 'filename');
      const base64 = text(args, 'data');
      if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(base64))
        throw new APIError(400, '"data" must be the file\'s bytes in base64.', 'data');
      // Like create's data: a status here would publish the new media document.
      const media = writableCollectionOf(ctx, MEDIA_SLUG);
      const fields = args.fields === undefined ? {} : draftData(media, object(args, 'fields'));
      const doc = await operations.upload(ctx, {
        receive: async (limits) => ({
          file: await stageLocalFile({ data: Buffer.from(base64, 'base64'), name: filename }, limits),
          data: fields,
        }),
        depth: 0,
      });
      return { doc, message: 'Uploaded.' };
    },
  },
];

/**
 * Over MCP a key builds releases with the rights it has on the documents alone (no `releases:write` scope
 * needed), and publishes one with `mcp:publish` (the tool's own check) instead of `releases:publish`.
 */
const releaseRights = (ctx: OperationContext, right: string): OperationContext =>
  ctx.scopes ? deriveContext(ctx, { scopes: [...ctx.scopes, `releases:${right}`] }) : ctx;

TOOLS.push(
  {
    name: 'list_releases',
    run: async (ctx, args) =>
      findReleases(ctx, {
        where: optionalWhere(args),
        limit: optionalInteger(args, 'limit'),
        page: optionalInteger(args, 'page'),
      }),
  },
  {
    name: 'create_release',
    run: async (ctx, args) => ({
      doc: await createRelease(releaseRights(ctx, 'write'), {
        title: text(args, 'title'),
        description: optionalText(args, 'description'),
      }),
      message: 'Release created; add documents with add_to_release.',
    }),
  },
  {
    name: 'add_to_release',
    run: async (ctx, args) => {
      const ref = refOf(ctx, args);
      const action = optionalText(args, 'action') ?? 'publish';
      return {
        doc: await addReleaseItem(releaseRights(ctx, 'write'), id(args, 'release'), { ...ref, action }),
        message: 'Added to the release.',
      };
    },
  },
  {
    name: 'publish_release',
    publishes: true,
    run: async (ctx, args) => ({
      doc: await publishRelease(releaseRights(ctx, 'publish'), id(args, 'release')),
      message: 'Release published.',
    }),
  },
);

export const TOOLS_BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));
