/**
 * `cms import payload URL` (docs/moving-in.md): every document of every collection this config shares with the
 * source (by slug; fields by name, the rest counted in `unmapped`), and every global, in all locales, ids kept.
 * A document with a pending draft arrives published with the draft on top; uploads bring their files from their
 * `url`. Documents are written after the ones they point at, so relationships hold. Accounts stay where they are:
 * auth collections and API keys are not copied (passwords cannot be read, and should not be).
 */
import type { CMS } from '../cms.ts';
import type { SanitizedCollection, SanitizedField } from '../config/types.ts';
import { isUploadCollection, MEDIA_SYSTEM_FIELDS } from '../config/upload-collections.ts';
import { localizeForRead } from '../fields/localize.ts';
import { visitRelations } from '../fields/walk-values.ts';
import * as operations from '../operations/index.ts';
import { stageLocalFile } from '../uploads/staging.ts';
import { hashOf, startRun, writeDocument, writeGlobal, type ImportRun, type Progress } from './import-run.ts';
import {
  allDocuments,
  connectPayload,
  fetchFile,
  getJSON,
  type Credentials,
  type PayloadSource,
} from './payload-source.ts';
import { addMissingMedia, countUnmapped } from './report.ts';

export type PayloadImportOptions = Credentials & { url: string; dryRun: boolean; progress?: Progress };

type Doc = Record<string, unknown>;
type Fetched = { collection: SanitizedCollection; doc: Doc; draft: Doc | null };

/** What a read answers beside the fields. */
const READ_KEYS = new Set([
  'id',
  'createdAt',
  'updatedAt',
  'status',
  '_status',
  'url',
  'thumbnailURL',
  'deletedAt',
  'globalType',
]);
const WRITTEN_FIELD = (f: SanitizedField) => Boolean(f.name) && f.type !== 'join';

export async function importPayload(cms: CMS, options: PayloadImportOptions): Promise<ImportRun> {
  const source = await connectPayload(options.url, options);
  const collections = cms.config.collections.filter((c) => c.builtIn !== 'users' && c.builtIn !== 'api-keys');
  // Everything is read before the first write: a source that fails midway leaves nothing half done.
  const fetched: Fetched[] = [];
  for (const collection of collections) fetched.push(...(await fetchCollection(source, collection)));
  const globals: { slug: string; doc: Doc; fields: SanitizedField[] }[] = [];
  for (const global of cms.config.globals) {
    const doc = await getJSON<Doc>(source, `/globals/${global.slug}?locale=all&depth=0&draft=true`);
    if (doc) globals.push({ slug: global.slug, doc, fields: global.fields });
  }

  const run = await startRun(cms, {
    source: `payload:${source.base}`,
    kind: 'payload',
    dryRun: options.dryRun,
    progress: options.progress,
  });
  const ordered = targetsFirst(fetched);
  for (const [i, item] of ordered.entries()) {
    await writeFetched(run, source, item);
    run.progress({ phase: 'documents', done: i + 1, total: ordered.length });
  }
  // Kept ids: new documents here must continue after the highest one (PostgreSQL draws ids from counters).
  if (!run.dryRun) await cms.store.continueIdsAfterCopy([...new Set(ordered.map((i) => i.collection.table))]);
  for (const global of globals) {
    const values = fieldValues(run, `global ${global.slug}`, global.fields, global.doc);
    await writeGlobal(run, global.slug, values, hashOf(global.doc), (data) =>
      writeLocales(run, data, global.fields, (ctx, d) =>
        operations.updateGlobal(ctx, { slug: global.slug, data: d }).then(() => {}),
      ),
    );
  }
  return run;
}

/** A collection's documents: their latest versions, and for those whose latest is a draft, the published one. */
async function fetchCollection(source: PayloadSource, collection: SanitizedCollection): Promise<Fetched[]> {
  const latest = await allDocuments(source, collection.slug, Boolean(collection.drafts));
  if (!latest) return [];
  const fetched: Fetched[] = [];
  for (const doc of latest) {
    if (!collection.drafts || (doc._status ?? doc.status) !== 'draft') {
      fetched.push({ collection, doc, draft: null });
      continue;
    }
    const published = await getJSON<Doc>(
      source,
      `/${collection.slug}/${encodeURIComponent(String(doc.id))}?locale=all&depth=0&draft=false`,
    ).catch(() => null);
    const live = published && (published._status ?? published.status) === 'published' ? published : null;
    fetched.push(live ? { collection, doc: live, draft: doc } : { collection, doc, draft: null });
  }
  return fetched;
}

const keyOf = (slug: string, id: unknown) => `${slug}:${id}`;

/** Documents ordered so that what a document points at is written before it (a cycle is written as met). */
function targetsFirst(items: Fetched[]): Fetched[] {
  const byKey = new Map(items.map((i) => [keyOf(i.collection.slug, i.doc.id), i]));
  const done = new Set<string>();
  const ordered: Fetched[] = [];
  const visit = (item: Fetched) => {
    const key = keyOf(item.collection.slug, item.doc.id);
    if (done.has(key)) return;
    done.add(key);
    for (const version of [item.doc, item.draft])
      if (version)
        visitRelations(
          item.collection.fields,
          version,
          (slot) => {
            const target = byKey.get(keyOf(slot.slug, slot.id));
            if (target) visit(target);
          },
          { keyedByLocale: true },
        );
    ordered.push(item);
  };
  // Uploads first: many documents point at them and they point at little.
  for (const item of items) if (isUploadCollection(item.collection)) visit(item);
  for (const item of items) visit(item);
  return ordered;
}

/** The values this config has fields for; the rest counted as unmapped. */
function fieldValues(run: ImportRun, label: string, fields: SanitizedField[], doc: Doc, upload = false): Doc {
  const names = new Set(fields.filter(WRITTEN_FIELD).map((f) => f.name));
  const values: Doc = {};
  for (const [key, value] of Object.entries(doc)) {
    if (names.has(key) && !(upload && MEDIA_SYSTEM_FIELDS.has(key))) values[key] = value;
    else if (!READ_KEYS.has(key) && !(upload && MEDIA_SYSTEM_FIELDS.has(key))) countUnmapped(run.report, label, key);
  }
  return values;
}

/** Writes values held for every locale: one write per locale (the default first), or one when not localized. */
async function writeLocales(
  run: ImportRun,
  values: Doc,
  fields: SanitizedField[],
  write: (ctx: ImportRun['ctx'], data: Doc) => Promise<void>,
  first = true,
): Promise<void> {
  const l10n = run.cms.config.localization;
  const locales = l10n ? [l10n.defaultLocale, ...l10n.locales.filter((l) => l !== l10n.defaultLocale)] : [null];
  for (const [i, locale] of locales.entries()) {
    if (i === 0 && !first) continue;
    const data = locale ? localizeForRead(fields, values, { locale, fallbackLocale: null }) : values;
    await write({ ...run.ctx, locale }, data);
  }
}

async function writeFetched(run: ImportRun, source: PayloadSource, { collection, doc, draft }: Fetched): Promise<void> {
  const upload = isUploadCollection(collection);
  const label = collection.slug;
  const values = fieldValues(run, label, collection.fields, doc, upload);
  const pending = draft
    ? fieldValues({ ...run, report: { ...run.report, unmapped: [] } }, label, collection.fields, draft, upload)
    : null;
  const id = typeof doc.id === 'number' ? doc.id : /^\d+$/.test(String(doc.id)) ? Number(doc.id) : undefined;
  const l10n = run.cms.config.localization;
  const inDefault = (v: Doc) =>
    l10n ? localizeForRead(collection.fields, v, { locale: l10n.defaultLocale, fallbackLocale: null }) : v;
  const published = !collection.drafts || (doc._status ?? doc.status) !== 'draft';
  await writeDocument(run, {
    sourceId: keyOf(collection.slug, doc.id),
    collection: collection.slug,
    hash: hashOf({ doc, draft }),
    id,
    createdAt: typeof doc.createdAt === 'string' ? doc.createdAt : undefined,
    status: collection.drafts ? (published ? 'published' : 'draft') : undefined,
    build: () => {
      // Counted when planned, so a dry run reports the files the real run brings.
      if (upload) run.report.media.imported++;
      return inDefault(values);
    },
    create: upload
      ? async (data) => {
          const bytes = typeof doc.url === 'string' ? await fetchFile(source, doc.url) : null;
          if (!bytes) {
            run.report.media.imported--;
            addMissingMedia(run.report, String(doc.url ?? doc.filename));
            throw new Error(`the file of ${collection.slug} ${doc.id} could not be fetched from its url`);
          }
          const created = await operations.upload(run.ctx, {
            collection: collection.slug,
            receive: async (limits) => ({
              file: await stageLocalFile({ data: bytes, name: String(doc.filename ?? 'file') }, limits),
              data,
            }),
            depth: 0,
            keep: { id, createdAt: typeof doc.createdAt === 'string' ? doc.createdAt : undefined },
          });
          return created.id as number;
        }
      : undefined,
    afterSave: async (savedId) => {
      const target = { collection: collection.slug, id: savedId, depth: 0 };
      const status = collection.drafts ? { status: published ? 'published' : 'draft' } : {};
      await writeLocales(
        run,
        values,
        collection.fields,
        (ctx, data) =>
          operations.update(ctx, { ...target, data: { ...data, ...status }, draft: !published }).then(() => {}),
        false,
      );
      if (pending)
        await writeLocales(run, pending, collection.fields, (ctx, data) =>
          operations.update(ctx, { ...target, data, draft: true }).then(() => {}),
        );
    },
  });
}
