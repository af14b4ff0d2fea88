/**
 * The Local API: the same operations REST calls, in-process. Access is skipped unless asked for
 * (`overrideAccess: false`, usually with a `user`).
 */
import { createCMS, type CreateOptions } from './create-cms.ts';
import type { CMS } from './cms.ts';
import type { UserConfig, User, Where } from './config/types.ts';
import * as operations from './operations/index.ts';
import type { DocumentRef } from './operations/steps/document-target.ts';
import { createContext, type OperationContext } from './operation-context.ts';
import { localeOptions } from './query/request-options.ts';
import { flushWebhooks } from './webhooks/start-webhooks.ts';
import { retryDueWebhooks } from './webhooks/retry-due.ts';
import { runJobs } from './jobs/run-jobs.ts';
import { listScheduledJobs, type ScheduledJobsArgs } from './jobs/scheduled-jobs.ts';
import { stageLocalFile, type LocalUploadFile } from './uploads/staging.ts';
import { createRelease } from './operations/releases/create-release.ts';
import { findReleaseByID, findReleases, type FindReleasesArgs } from './operations/releases/find-releases.ts';
import { addReleaseItem, removeReleaseItem } from './operations/releases/release-items.ts';
import { publishRelease } from './operations/releases/publish-release.ts';
import { scheduleRelease, unscheduleRelease } from './operations/releases/schedule-release.ts';
import { revertRelease } from './operations/releases/revert-release.ts';
import { previewRelease } from './operations/releases/preview-release.ts';
import type { ReleaseList, TypedLocalAPI, TYPED_METHODS } from './local-types.ts';
import type { CMSTypesShape, UntypedCMS } from './wire/typed-api.ts';

/**
 * Payload's read shape: `select: { title: true }`, `populate: { users: { name: true } }`; `richText`
 * answers rich text values as strings (docs/rich-text.md).
 */
type Shape = {
  select?: Record<string, unknown>;
  populate?: Record<string, unknown>;
  richText?: 'html' | 'markdown' | 'text';
  /** `false` skips join fields; `{ <field>: { limit, page, sort, where } }` pages one. */
  joins?: false | Record<string, { limit?: number; page?: number; sort?: string; where?: Where }>;
};
type Common = {
  user?: User | null;
  overrideAccess?: boolean;
  locale?: string;
  fallbackLocale?: string | false;
  depth?: number;
  showHiddenFields?: boolean;
};

function contextFor(cms: CMS, args: Common): OperationContext {
  const query: Record<string, unknown> = {};
  if (args.locale) query.locale = args.locale;
  if (args.fallbackLocale !== undefined)
    query['fallback-locale'] = args.fallbackLocale === false ? 'false' : args.fallbackLocale;
  return createContext(cms, {
    user: args.user ?? null,
    overrideAccess: args.overrideAccess ?? true,
    showHiddenFields: args.showHiddenFields ?? false,
    ...localeOptions(query, cms.config),
  });
}

type UpdateOne = (
  args: Common & {
    collection: string;
    id: number | string;
    data: Record<string, unknown>;
    draft?: boolean;
    autosave?: boolean;
    trash?: boolean;
  },
) => Promise<Record<string, unknown>>;
type UpdateMany = (
  args: Common & { collection: string; where: Where; data: Record<string, unknown>; draft?: boolean; trash?: boolean },
) => Promise<operations.BulkResult>;
type DeleteOne = (
  args: Common & { collection: string; id: number | string; trash?: boolean },
) => Promise<Record<string, unknown>>;
type DeleteMany = (
  args: Common & { collection: string; where: Where; draft?: boolean; trash?: boolean },
) => Promise<operations.BulkResult>;

/** As in Payload's Local API: `update` and `delete` take an `id`, or a `where` for every matching document. */
function updateOne(cms: CMS) {
  return (args: Parameters<UpdateOne>[0] | Parameters<UpdateMany>[0]) =>
    'id' in args && args.id !== undefined
      ? operations.update(contextFor(cms, args), args)
      : operations.updateMany(contextFor(cms, args), args as Parameters<UpdateMany>[0]);
}

function deleteOne(cms: CMS) {
  return (args: Parameters<DeleteOne>[0] | Parameters<DeleteMany>[0]) =>
    'id' in args && args.id !== undefined
      ? operations.deleteDocument(contextFor(cms, args), args)
      : operations.deleteMany(contextFor(cms, args), args as Parameters<DeleteMany>[0]);
}

/** Reads with releases applied, as if published in this order (docs/releases.md). */
type Releases = { release?: ReleaseList };

function untypedLocalAPI(cms: CMS) {
  return {
    cms,
    config: cms.config,
    find: (
      args: Common &
        Shape & {
          collection: string;
          where?: Where;
          sort?: string;
          limit?: number;
          page?: number;
          draft?: boolean;
          pagination?: boolean;
          trash?: boolean;
        } & Releases,
    ) => operations.find(contextFor(cms, args), args),
    findByID: (
      args: Common & Shape & { collection: string; id: number | string; draft?: boolean; trash?: boolean } & Releases,
    ) => operations.findByID(contextFor(cms, args), args),
    count: (args: Common & { collection: string; where?: Where; draft?: boolean; trash?: boolean } & Releases) =>
      operations.count(contextFor(cms, args), args),
    create: (args: Common & { collection: string; data: Record<string, unknown>; draft?: boolean }) =>
      operations.create(contextFor(cms, args), args),
    duplicate: (args: Common & { collection: string; id: number | string; data?: Record<string, unknown> }) =>
      operations.duplicate(contextFor(cms, args), args),
    update: updateOne(cms) as UpdateOne & UpdateMany,
    delete: deleteOne(cms) as DeleteOne & DeleteMany,
    /** Uploads into media (or `collection`, any upload collection), like `POST /media`: `file` is a File or Blob, `{ data: Uint8Array, name }`, or a path on disk. */
    upload: (args: Common & { file: LocalUploadFile; data?: Record<string, unknown>; collection?: string }) =>
      operations.upload(contextFor(cms, args), {
        receive: async (limits) => ({ file: await stageLocalFile(args.file, limits), data: args.data }),
        depth: args.depth,
        collection: args.collection,
      }),
    findGlobal: (args: Common & Shape & { slug: string; draft?: boolean } & Releases) =>
      operations.findGlobal(contextFor(cms, args), args),
    updateGlobal: (
      args: Common & { slug: string; data: Record<string, unknown>; draft?: boolean; autosave?: boolean },
    ) => operations.updateGlobal(contextFor(cms, args), args),
    // Drafts, versions, scheduling and preview: `ref` is `{ collection, id }` or `{ global }`.
    unpublish: (args: Common & DocumentRef) => operations.unpublish(contextFor(cms, args), args),
    discardDraft: (args: Common & DocumentRef) => operations.discardDraft(contextFor(cms, args), args),
    findVersions: (args: Common & DocumentRef & { limit?: number; page?: number }) =>
      operations.findVersions(contextFor(cms, args), args),
    findVersionByID: (args: Common & DocumentRef & { version: number | string }) =>
      operations.findVersionByID(contextFor(cms, args), args),
    restoreVersion: (args: Common & DocumentRef & { version: number | string }) =>
      operations.restoreVersion(contextFor(cms, args), args),
    schedule: (args: Common & DocumentRef & { action: 'publish' | 'unpublish'; at: string | Date }) =>
      operations.scheduleAction(contextFor(cms, args), {
        ...args,
        at: args.at instanceof Date ? args.at.toISOString() : args.at,
      }),
    listScheduled: (args: Common & DocumentRef) => operations.listScheduled(contextFor(cms, args), args),
    cancelScheduled: (args: Common & DocumentRef & { job: number | string }) =>
      operations.cancelScheduled(contextFor(cms, args), args),
    /** Pending scheduled jobs across the site (`GET /jobs/scheduled`), soonest first, in the list shape. */
    scheduledJobs: (args: Common & ScheduledJobsArgs = {}) => listScheduledJobs(contextFor(cms, args), args),
    preview: (
      args: Common &
        ({ collection: string; id?: number | string } | { global: string }) & { data: Record<string, unknown> },
    ) => operations.previewDocument(contextFor(cms, args), args),
    /** Waits for this process's first webhook attempts and quick retries (call before a serverless function returns). */
    flushWebhooks: () => flushWebhooks(cms),
    /** Sends stored webhook deliveries that are due; `{ sent, failed, pending }`. */
    retryWebhooks: () => retryDueWebhooks(cms),
    /** Runs due scheduled jobs and webhook retries now (docs/webhooks.md). */
    runJobs: () => runJobs(cms),
    releases: releasesAPI(cms),
    close: () => cms.close(),
  };
}

type ReleaseId = { id: number | string };
type ReleaseItemInput = ({ collection: string; id: number | string } | { global: string }) & {
  action: 'publish' | 'unpublish';
  version?: number | string;
};

/** `releases.*`: the release routes' operations (docs/releases.md), with the Local API's defaults. */
function releasesAPI(cms: CMS) {
  return {
    create: (args: Common & { data: { title: string; description?: string; publishAt?: string } }) =>
      createRelease(contextFor(cms, args), args.data),
    find: (args: Common & FindReleasesArgs = {}) => findReleases(contextFor(cms, args), args),
    findByID: (args: Common & ReleaseId) => findReleaseByID(contextFor(cms, args), args.id),
    addItem: (args: Common & ReleaseId & { item: ReleaseItemInput }) =>
      addReleaseItem(contextFor(cms, args), args.id, args.item),
    removeItem: (args: Common & ReleaseId & { item: number | string }) =>
      removeReleaseItem(contextFor(cms, args), args.id, args.item),
    publish: (args: Common & ReleaseId) => publishRelease(contextFor(cms, args), args.id),
    schedule: (args: Common & ReleaseId & { at: string | Date }) =>
      scheduleRelease(contextFor(cms, args), args.id, {
        at: args.at instanceof Date ? args.at.toISOString() : args.at,
      }),
    unschedule: (args: Common & ReleaseId) => unscheduleRelease(contextFor(cms, args), args.id),
    revert: (args: Common & ReleaseId) => revertRelease(contextFor(cms, args), args.id),
    preview: (args: Common & ReleaseId) => previewRelease(contextFor(cms, args), args.id),
  };
}

/** The Local API, typed by a generated `CMSTypes` map when given one (src/local-types.ts). */
export type LocalAPI<T extends CMSTypesShape = UntypedCMS> = Omit<
  ReturnType<typeof untypedLocalAPI>,
  (typeof TYPED_METHODS)[number]
> &
  TypedLocalAPI<T>;

export function localAPI<T extends CMSTypesShape = UntypedCMS>(cms: CMS): LocalAPI<T> {
  // The implementation is written against plain records; the generated map only narrows what callers may pass and get.
  return untypedLocalAPI(cms) as unknown as LocalAPI<T>;
}

export type GetCMSOptions = { config: UserConfig | string } & Omit<
  CreateOptions,
  'config' | 'configPath' | 'migrate'
> & {
    /** false: open the database without changing its schema; a pending change is an error naming `cms migrate` (docs/typescript.md). */
    migrate?: boolean;
  };

/** `getCMS({ config })` with a config object or a config file path (docs/typescript.md); `getCMS<CMSTypes>(…)` for typed documents. */
export async function getCMS<T extends CMSTypesShape = UntypedCMS>(options: GetCMSOptions): Promise<LocalAPI<T>> {
  const { config, migrate, ...rest } = options;
  const mode = migrate === false ? 'verify' : 'auto';
  const cms =
    typeof config === 'string'
      ? await createCMS({ ...rest, migrate: mode, configPath: config })
      : await createCMS({ ...rest, migrate: mode, config });
  return localAPI<T>(cms);
}
