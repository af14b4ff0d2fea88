/**
 * One run of `cms import <source>`: the instance, the source's mapping, the report being filled, and the one
 * place documents are written, always through the operations (hooks, validation, versions, search index,
 * realtime and audit log as for any save). A dry run walks the same steps and writes nothing.
 */
import { createHash } from 'node:crypto';
import type { CMS } from '../cms.ts';
import * as operations from '../operations/index.ts';
import type { OperationContext } from '../operation-context.ts';
import { loadMapping, saveMapping, type Mapped } from './import-map.ts';
import { count, emptyReport, type ImportReport } from './report.ts';

export type Progress = (p: { phase: string; done: number; total: number }) => void;

export type ImportRun = {
  cms: CMS;
  ctx: OperationContext;
  source: string;
  dryRun: boolean;
  report: ImportReport;
  /** This source's items already written, by source id. */
  mapping: Map<string, Mapped>;
  /** Media files already imported by any source, by the sha256 of their bytes. */
  media: Map<string, Mapped>;
  /** Each media reference met in this run (a URL or path) → its media document, or null when missing. */
  mediaRefs: Map<string, Promise<string | null>>;
  /** Media files being imported now, by hash: the same bytes met twice at once are one document. */
  mediaInFlight: Map<string, Promise<string | null>>;
  redirects: { from: string; to: string }[];
  progress: Progress;
};

/** The mapping source every run shares for media, so the same bytes are one media document whoever brings them. */
export const MEDIA_SOURCE = 'media';

export async function startRun(
  cms: CMS,
  options: { source: string; kind: string; dryRun: boolean; progress?: Progress },
): Promise<ImportRun> {
  return {
    cms,
    ctx: operations.createContext(cms, { overrideAccess: true, via: 'cli' }),
    source: options.source,
    dryRun: options.dryRun,
    report: emptyReport(options.kind, options.dryRun),
    mapping: await loadMapping(cms.store, options.source),
    media: await loadMapping(cms.store, MEDIA_SOURCE),
    mediaRefs: new Map(),
    mediaInFlight: new Map(),
    redirects: [],
    progress: options.progress ?? (() => {}),
  };
}

/** A stable hash of what was read for an item: equal input, equal hash, on every run. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

export type DocumentItem = {
  sourceId: string;
  collection: string;
  /** The document's values, built only when the item is written (an unchanged item is not converted again). */
  build: () => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** The hash of the source item (hashOf), compared with the mapping's. */
  hash: string;
  /** For collections with drafts. */
  status?: 'published' | 'draft';
  /** A scheduled publish, for a draft (ISO time). */
  publishAt?: string;
  /** The source's creation time, kept on create. */
  createdAt?: string;
  /** The source's id, kept on create (a Payload source). */
  id?: number;
  /** Writes a new document another way than a plain create (an upload); answers its id. */
  create?: (values: Record<string, unknown>) => Promise<string | number>;
  /** More writes once the document exists (other locales, a pending draft). */
  afterSave?: (id: string | number) => Promise<void>;
  /** Where the document was at the source, for redirects.json, and its new path. */
  redirect?: { from: string; to: string };
};

/** A document not written yet in a dry run stands in under this id, so references to it count as resolved. */
export const PLANNED = 'planned';

/** The document id an item maps to now (written, or planned in a dry run), else null. */
export function mappedId(run: ImportRun, sourceId: string): { collection: string; id: string } | null {
  const mapped = run.mapping.get(sourceId);
  return mapped ? { collection: mapped.collection, id: mapped.docId } : null;
}

/** A relationship value for a mapped id: a number where our ids are numbers. */
export const relationValue = (id: string): string | number => (/^\d+$/.test(id) ? Number(id) : id);

/**
 * Writes one item: created when unmapped, updated when its source changed, left alone when it did not.
 * A failure is counted and reported, and the run goes on; a rerun picks the item up again.
 */
export async function writeDocument(run: ImportRun, item: DocumentItem): Promise<string | null> {
  const existing = run.mapping.get(item.sourceId);
  if (item.redirect) run.redirects.push(item.redirect);
  if (existing && existing.hash === item.hash) {
    count(run.report, item.collection, 'unchanged');
    return existing.docId;
  }
  try {
    const values = await item.build();
    if (run.dryRun) {
      count(run.report, item.collection, existing ? 'updated' : 'created');
      const planned = existing?.docId ?? PLANNED;
      run.mapping.set(item.sourceId, { collection: item.collection, docId: planned, hash: item.hash });
      return planned;
    }
    const mapped = await saveMapped(run, item, values, existing);
    run.mapping.set(item.sourceId, mapped);
    count(run.report, item.collection, existing ? 'updated' : 'created');
    return mapped.docId;
  } catch (error) {
    count(run.report, item.collection, 'failed');
    run.report.errors.push({ sourceId: item.sourceId, message: (error as Error).message });
    return null;
  }
}

/**
 * Saves the item and writes its mapping row in the document's own transaction: a listener of the change
 * stream, there only while this item is saved, writes the row when the first change of the item's
 * collection that this run made is announced. Document and row commit together, so a run that stops midway
 * leaves no document without its row, and each document costs one commit, not two. A save that announces
 * no change there has its row written after it.
 */
async function saveMapped(
  run: ImportRun,
  item: DocumentItem,
  values: Record<string, unknown>,
  existing: Mapped | undefined,
): Promise<Mapped> {
  let mapped: Mapped | null = null;
  const stop = run.cms.events.on(async (event, scope) => {
    if (mapped || event.collection !== item.collection || event.id === undefined) return;
    if (scope.origin?.via !== run.ctx.via || scope.origin.user !== (run.ctx.user?.id ?? null)) return;
    mapped = { collection: item.collection, docId: String(event.id), hash: item.hash };
    await saveMapping(scope.tx, run.source, item.sourceId, mapped);
  });
  let docId: string | number;
  try {
    docId = await save(run, item, values, existing);
  } catch (error) {
    // A step after the document's commit failed (another locale, a schedule): the row's empty hash makes the
    // next run update the document and try that step again. Had the commit itself failed, the row points at
    // no document, and the next run creates it as one deleted here.
    if (mapped) await saveMapping(run.cms.store, run.source, item.sourceId, { ...(mapped as Mapped), hash: '' });
    throw error;
  } finally {
    stop();
  }
  if (mapped && (mapped as Mapped).docId === String(docId)) return mapped;
  const after = { collection: item.collection, docId: String(docId), hash: item.hash };
  await saveMapping(run.cms.store, run.source, item.sourceId, after);
  return after;
}

async function save(
  run: ImportRun,
  item: DocumentItem,
  values: Record<string, unknown>,
  existing: Mapped | undefined,
): Promise<string | number> {
  const data = item.status ? { ...values, status: item.status } : values;
  const draft = item.status === 'draft';
  if (existing) {
    const found = await operations
      .findByID(run.ctx, { collection: item.collection, id: existing.docId, draft: true, depth: 0 })
      .catch(() => null);
    // Deleted here since the last run: written again as a new document.
    if (found) {
      await operations.update(run.ctx, { collection: item.collection, id: existing.docId, data, draft, depth: 0 });
      await schedulePublish(run, item, existing.docId);
      await item.afterSave?.(existing.docId);
      return existing.docId;
    }
  }
  const id = item.create
    ? await item.create(data)
    : ((
        await operations.create(run.ctx, {
          collection: item.collection,
          data,
          draft,
          depth: 0,
          keep: { id: item.id, createdAt: item.createdAt },
        })
      ).id as number);
  await schedulePublish(run, item, id);
  await item.afterSave?.(id);
  return id;
}

/** A publish at the source's date, once: a pending publish job at that time is not added again. */
async function schedulePublish(run: ImportRun, item: DocumentItem, id: string | number): Promise<void> {
  if (!item.publishAt) return;
  const at = Date.parse(item.publishAt);
  if (!(at > run.cms.clock.now())) return;
  const ref = { collection: item.collection, id };
  const { docs } = await operations.listScheduled(run.ctx, ref);
  if (docs.some((job) => job.action === 'publish' && Date.parse(String(job.at)) === at)) return;
  await operations.scheduleAction(run.ctx, { ...ref, action: 'publish', at: new Date(at).toISOString() });
}

/** Writes a global's values (a menus global) when they changed since the last run. */
export async function writeGlobal(
  run: ImportRun,
  slug: string,
  data: Record<string, unknown>,
  hash: string,
  write: (data: Record<string, unknown>) => Promise<void> = async (values) =>
    void (await operations.updateGlobal(run.ctx, { slug, data: values })),
): Promise<void> {
  const sourceId = `global:${slug}`;
  const existing = run.mapping.get(sourceId);
  const label = `global ${slug}`;
  if (existing && existing.hash === hash) return count(run.report, label, 'unchanged');
  if (!run.dryRun) {
    try {
      await write(data);
      const mapped = { collection: slug, docId: '1', hash };
      await saveMapping(run.cms.store, run.source, sourceId, mapped);
      run.mapping.set(sourceId, mapped);
    } catch (error) {
      count(run.report, label, 'failed');
      run.report.errors.push({ sourceId, message: (error as Error).message });
      return;
    }
  }
  count(run.report, label, existing ? 'updated' : 'created');
}
