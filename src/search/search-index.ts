/**
 * The full-text index of each collection with a `search` option (docs/search.md): one row per document,
 * locale and state (live, or pending draft) holding the text of each search field. It is kept in the
 * write's own transaction (a listener of the change stream, like the change log), so a search never finds
 * what a rolled-back write wrote. The tables are derived data: made at start when missing or when the
 * config's search fields or locales changed (then filled from the documents), and rebuilt by `cms reindex`.
 */
import type { CMS } from '../cms.ts';
import type { SanitizedCollection } from '../config/types.ts';
import type { Queryable, Store } from '../db/store.ts';
import { readSetting, writeSetting } from '../db/settings.ts';
import { countChange } from '../db/change-triggers.ts';
import { rowToDoc } from '../fields/row.ts';
import { pendingDraft } from '../versions/drafts.ts';
import { ownerOf } from '../versions/live-row.ts';
import type { PendingSQL, SearchRow } from '../db/search-sql.ts';
import { notePending, pendingOf, pendingTable } from './pending-rows.ts';
import { isRichTextValue, type RichTextValue } from '../richtext/nodes.ts';
import { richTextToText } from '../richtext/to-text.ts';

type Doc = Record<string, unknown>;

export const searchTable = (collection: SanitizedCollection) => `_search_${collection.slug}`;
export const searchable = (cms: CMS) => cms.config.collections.filter((c) => c.search);
/** The locales rows are kept for: the config's, or one unnamed locale without localization. */
export const indexLocales = (cms: CMS) => cms.config.localization?.locales ?? [''];

/**
 * Rich text as the plain text converter reads it (docs/rich-text.md), one top-level node at a time so that
 * a quote or an embed never glues its words to the paragraph before it. Text split into runs by formatting
 * (`Hel` + bold `lo`) stays one word.
 */
function richTextStrings(value: RichTextValue): string[] {
  return (value.root.children ?? [])
    .map((node) => richTextToText({ root: { ...value.root, children: [node] } }))
    .filter(Boolean);
}

/** Every string inside a value: rich text's plain text, list items, nested rows. */
function strings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (isRichTextValue(value)) out.push(...richTextStrings(value));
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value && typeof value === 'object') {
    const node = value as Doc;
    if (typeof node.text === 'string') out.push(node.text);
    for (const [key, child] of Object.entries(node))
      if (key !== 'text' && typeof child === 'object') strings(child, out);
  }
}

/** The value at a dot path, through groups, arrays and blocks (every row), in `locale` where kept per locale. */
function valuesAt(value: unknown, parts: string[], locale: string, locales: string[], fallback: string): unknown[] {
  if (Array.isArray(value)) return value.flatMap((item) => valuesAt(item, parts, locale, locales, fallback));
  if (!value || typeof value !== 'object') return parts.length ? [] : [value];
  const object = value as Doc;
  const keys = Object.keys(object);
  if (locale && keys.length && keys.every((k) => locales.includes(k)))
    return valuesAt(object[locale] ?? object[fallback], parts, locale, locales, fallback);
  if (!parts.length) return [value];
  return valuesAt(object[parts[0]], parts.slice(1), locale, locales, fallback);
}

export function textsOf(cms: CMS, collection: SanitizedCollection, doc: Doc, locale: string): string[] {
  const locales = cms.config.localization?.locales ?? [];
  const fallback = cms.config.localization?.defaultLocale ?? '';
  return collection.search!.fields.map((field) => {
    const out: string[] = [];
    strings(valuesAt(doc, field.path.split('.'), locale, locales, fallback), out);
    return out.join('\n');
  });
}

/**
 * Writes a document's rows (one per locale); into `pending`, the table of rows waiting for the index, where
 * given. Answers how many it wrote.
 */
async function writeRows(
  cms: CMS,
  db: Queryable,
  collection: SanitizedCollection,
  doc: Doc,
  draft: number,
  pending?: PendingSQL,
): Promise<number> {
  const table = searchTable(collection);
  const locales = indexLocales(cms);
  for (const [index, locale] of locales.entries()) {
    const row: SearchRow = { docId: doc.id as number, locale, draft, texts: textsOf(cms, collection, doc, locale) };
    const { sql, params } = pending ? pending.insert(row, index) : db.dialect.search.insert(table, row, index);
    await db.run(sql, params);
  }
  return locales.length;
}

/**
 * Removes a document's rows and counts a change of the index table under its own name: a search total kept
 * on the strength of that count only adds the documents created since (src/search/kept-answers.ts), which
 * holds only while no row of an older document was removed or rewritten.
 */
async function removeRows(
  cms: CMS,
  db: Queryable,
  collection: SanitizedCollection,
  id: number,
  onlyDraft: boolean,
): Promise<void> {
  const table = searchTable(collection);
  const pending = await pendingTable(cms, db, collection, table);
  for (const remove of [db.dialect.search.remove(table, id, onlyDraft), pending?.remove(id, onlyDraft)])
    if (remove) await db.run(remove.sql, remove.params);
  await countChange(db, table);
}

/** The highest document id the index table holds rows of; null when it holds none. */
export async function newestIndexed(db: Queryable, table: string): Promise<number | null> {
  const row = await db.get<{ n: number | null }>(`SELECT ${db.dialect.search.newestDoc(table)} AS "n"`);
  return row?.n == null ? null : Number(row.n);
}

/**
 * A new document's rows added below the newest document's (an id given by hand) count as a change too
 * (rows that wait for the index are looked at when they are moved into it: src/search/pending-rows.ts).
 */
async function appending(db: Queryable, table: string, id: number): Promise<void> {
  const newest = await newestIndexed(db, table);
  if (newest !== null && newest >= id) await countChange(db, table);
}

/**
 * A document's rows, after any write of it: its live text, and its pending draft's where one is. `fresh`:
 * the document is new, so it has no rows to remove; its rows wait to be moved into the index with others'
 * where the engine keeps such a table (src/search/pending-rows.ts), unless `direct`.
 */
export async function indexDocument(
  cms: CMS,
  db: Queryable,
  collection: SanitizedCollection,
  id: number,
  live: Doc | null,
  fresh = false,
  direct = false,
): Promise<void> {
  const table = searchTable(collection);
  // With a synchronous replica a search that moved rows in would wait for the replica as a write does.
  const waits = fresh && !direct && cms.config.replica?.mode !== 'sync';
  const pending = waits ? await pendingTable(cms, db, collection, table) : undefined;
  if (!fresh) await removeRows(cms, db, collection, id, false);
  else if (!direct && !pending) await appending(db, table, id);
  if (!live) return;
  let rows = await writeRows(cms, db, collection, live, 0, pending);
  const draft = collection.drafts ? await pendingDraft(db, ownerOf(collection, id)) : null;
  if (draft) rows += await writeRows(cms, db, collection, { ...draft, id }, 1, pending);
  if (pending) await notePending(cms, db, pending, table, rows);
}

/** Whether a save left every search field as it was, in every locale (its rows need no rewrite). */
const sameText = (cms: CMS, collection: SanitizedCollection, doc: Doc, previous: Doc) =>
  indexLocales(cms).every(
    (locale) =>
      textsOf(cms, collection, doc, locale).join('\0') === textsOf(cms, collection, previous, locale).join('\0'),
  );

export function indexChanges(cms: CMS): void {
  cms.events.on(async (event, scope) => {
    const collection = event.collection ? cms.config.collectionsBySlug.get(event.collection) : undefined;
    if (!collection?.search || event.id === undefined) return;
    // A draft-only save of an existing document: only its draft rows change.
    if (event.type === 'draft' && event.previousDoc) {
      await removeRows(cms, scope.tx, collection, event.id, true);
      await writeRows(cms, scope.tx, collection, { ...event.doc, id: event.id }, 1);
      return;
    }
    // Without drafts an update touches only the live rows: none to rewrite when no searched text changed.
    if (
      event.type === 'update' &&
      !collection.drafts &&
      event.previousDoc &&
      sameText(cms, collection, event.doc, event.previousDoc)
    )
      return;
    await indexDocument(
      cms,
      scope.tx,
      collection,
      event.id,
      event.type === 'delete' ? null : event.doc,
      event.type === 'create',
    );
  });
}

/**
 * What the index's rows follow from. Drafts are part of it where a collection has them: a search then
 * leaves no rows of an earlier draft behind when they are turned off (where there are none, every row is a
 * live row and the engine need not test it). Absent without drafts, so that their indexes keep the
 * signature they were built under.
 */
const signatureOf = (cms: CMS, collection: SanitizedCollection) =>
  JSON.stringify({
    fields: collection.search!.fields,
    locales: indexLocales(cms),
    v: 1,
    ...(collection.drafts ? { drafts: true } : {}),
  });

/**
 * Rebuilds one collection's index from its documents; `progress(done, total)` after each batch. Counts a
 * change of the collection's table when done, as a write would.
 */
export async function reindexCollection(
  cms: CMS,
  collection: SanitizedCollection,
  progress: (done: number, total: number) => void = () => {},
): Promise<number> {
  const { store } = cms;
  const table = searchTable(collection);
  const pending = pendingOf(store, collection, table);
  await store.transaction(async (tx) => {
    await tx.exec(tx.dialect.search.drop(table));
    for (const statement of tx.dialect.search.create(table, collection.search!.fields.length)) await tx.exec(statement);
    // Rows waiting for the index are rebuilt from their documents below, like every other.
    if (pending) for (const statement of [pending.drop, pending.create]) await tx.exec(statement);
  });
  await pendingTable(cms, store, collection, table);
  const total = (await store.get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS "n" FROM "${collection.table}"`))!
    .n;
  let done = 0;
  let after = 0;
  for (;;) {
    const rows = await store.all<Doc>(`SELECT * FROM "${collection.table}" WHERE "id" > ? ORDER BY "id" LIMIT 500`, [
      after,
    ]);
    if (!rows.length) break;
    await store.transaction(async (tx) => {
      for (const row of rows) {
        const doc = rowToDoc(collection, row);
        // The table was made empty above and the documents come in id order: each one only adds rows, many
        // in one transaction, so straight into the index.
        await indexDocument(cms, tx, collection, doc.id as number, doc, true, true);
      }
    });
    after = rows[rows.length - 1].id as number;
    done += rows.length;
    progress(done, total);
  }
  await writeSetting(store, `search:${collection.slug}`, signatureOf(cms, collection));
  // Searches answered before the rebuild, kept by the response cache of any running server, are stale now.
  await countChange(store, collection.table);
  await countChange(store, table);
  return done;
}

/** Per store and index table: whether what the engine keeps beside the index is there (asked once). */
const extrasFound = new WeakMap<Store, Map<string, boolean>>();

/**
 * Whether the engine's extras beside a collection's index are there: an index built by an earlier version
 * lacks them until a start adds them (`getCMS({ migrate: false })` leaves indexes alone). Asked of the
 * database once per store; a search without them answers as before.
 */
export async function extrasPresent(db: Store, collection: SanitizedCollection): Promise<boolean> {
  const table = searchTable(collection);
  const extras = db.dialect.search.extras?.(table, collection.search!.fields.length);
  if (!extras) return false;
  let known = extrasFound.get(db);
  if (!known) extrasFound.set(db, (known = new Map()));
  let present = known.get(table);
  if (present === undefined) {
    present = Boolean((await db.get<{ present: boolean }>(extras.present))?.present);
    // Not kept inside a transaction: one rolled back may have made them.
    if (!db.inTransaction) known.set(table, present);
  }
  return present;
}

/** What the engine keeps beside an index built by an earlier version, added without a rebuild. */
async function addExtras(cms: CMS, collection: SanitizedCollection): Promise<void> {
  const extras = cms.store.dialect.search.extras?.(searchTable(collection), collection.search!.fields.length);
  if (!extras || (await cms.store.get<{ present: boolean }>(extras.present))?.present) return;
  await cms.store.transaction(async (tx) => {
    for (const statement of extras.add) await tx.exec(statement);
  });
  extrasFound.get(cms.store)?.set(searchTable(collection), true);
}

/** At start: each index whose table is missing or whose fields or locales changed is made and filled. */
export async function ensureSearchIndexes(cms: CMS): Promise<void> {
  for (const collection of searchable(cms)) {
    const lookup = cms.store.dialect.tableExists(searchTable(collection));
    const exists = await cms.store.get(lookup.sql, lookup.params);
    if (exists && (await readSetting(cms.store, `search:${collection.slug}`)) === signatureOf(cms, collection)) {
      // An index built before rows waited for it has no table for them yet.
      await pendingTable(cms, cms.store, collection, searchTable(collection));
      await addExtras(cms, collection);
      continue;
    }
    await reindexCollection(cms, collection);
  }
}
