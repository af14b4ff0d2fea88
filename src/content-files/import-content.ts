/**
 * `cms import DIR`: loads a folder written by `cms export` (src/content-files/layout.ts) into this
 * instance, ids kept. Everything is read and checked before anything is written: a folder or field the
 * config does not have refuses the whole import with a message naming it. Then the media files are put in
 * storage (a failure later leaves only unnamed files, which the upload sweep removes), and the documents
 * are written in one transaction: inserted, or replacing the document of the same id, so importing into
 * an empty instance, or again into one that holds the same content, gives the same documents.
 * This is a bulk load like `cms migrate:engine`, not a series of saves: no hooks, versions, webhooks or realtime
 * events (one realtime `reset` tells open streams to read afresh); each document gets one audit-log entry (`import`, via `cli`) and its full-text index rows in the
 * same transaction, and the change counters move as for any write (the tables' triggers).
 */
import fs from 'node:fs';
import { isUploadCollection } from '../config/upload-collections.ts';
import path from 'node:path';
import type { CMS } from '../cms.ts';
import type { Entity, SanitizedField } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import { docToRow } from '../fields/row.ts';
import { blockOfRow } from '../fields/kinds/block-rows.ts';
import { BLOCK_ROW_KEYS } from '../config/sanitize-blocks.ts';
import { entityTable } from '../db/table-model.ts';
import type { Queryable } from '../db/store.ts';
import { quote } from '../query/where.ts';
import { stripMediaURLs } from '../uploads/media-urls.ts';
import {
  contentCollections,
  DOCUMENT_FILE,
  GLOBALS_DIR,
  MANIFEST_FILE,
  MEDIA_DIR,
  type ExportManifest,
} from './layout.ts';
import { mediaFileKeys } from '../uploads/media-files.ts';
import { SYSTEM_ORIGIN, writeAuditEntry } from '../audit/write-entry.ts';
import { changesBetween } from '../audit/changes.ts';
import { outsideFileProblem } from './folder-files.ts';
import { isoNow } from '../clock.ts';
import { indexDocument } from '../search/search-index.ts';
import { markBulkLoad } from '../realtime/change-log.ts';

export type ImportProgress = { phase: string; done: number; total: number };
export type ImportResult = { documents: Record<string, number>; globals: number; mediaFiles: number };

type Doc = Record<string, unknown>;
type Loaded = { entity: Entity; file: string; id: number; doc: Doc };

const GLOBAL_ROW = 1;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const refuse = (message: string): never => {
  throw new ConfigError(`import refused: ${message}`);
};

export async function importContent(
  cms: CMS,
  dir: string,
  onProgress: (p: ImportProgress) => void = () => {},
): Promise<ImportResult> {
  const root = path.resolve(dir);
  await readManifest(root);
  const loaded = await loadDocuments(cms, root);
  const mediaNames = loaded.filter((l) => isUploadCollection(l.entity)).flatMap((l) => mediaFileKeys(l.doc));
  for (const name of mediaNames) {
    const problem = await outsideFileProblem(root, `${MEDIA_DIR}/${name}`);
    if (problem) refuse(`${MEDIA_DIR}/${name}, named by a media document, ${problem}`);
  }

  for (const [i, name] of mediaNames.entries()) {
    const file = Bun.file(path.join(root, MEDIA_DIR, name));
    await cms.storage.put(name, file, { contentType: file.type, size: file.size });
    onProgress({ phase: MEDIA_DIR, done: i + 1, total: mediaNames.length });
  }

  const result: ImportResult = { documents: {}, globals: 0, mediaFiles: mediaNames.length };
  const now = isoNow(cms.clock);
  await cms.store.transaction(async (tx) => {
    for (const [i, item] of loaded.entries()) {
      const saved = await upsertDocument(tx, item, now).catch((error) => {
        const field = tx.dialect.uniqueViolation(error);
        refuse(
          field
            ? `${item.file}: "${field}" must be unique, and another document already has this value`
            : `${item.file}: ${(error as Error).message}`,
        );
      });
      // Searchable documents are indexed as a save would index them, in the same transaction.
      if (saved && item.entity.kind === 'collection' && item.entity.search)
        await indexDocument(cms, tx, item.entity, item.id, saved);
      const subject =
        item.entity.kind === 'global'
          ? { global: item.entity.slug }
          : { collection: item.entity.slug, document: item.id };
      await writeAuditEntry(tx, cms, {
        action: 'import',
        ...subject,
        origin: { ...SYSTEM_ORIGIN, via: 'cli' },
        changes: changesBetween(item.entity, null, item.doc),
      });
      if (item.entity.kind === 'global') result.globals++;
      else result.documents[item.entity.slug] = (result.documents[item.entity.slug] ?? 0) + 1;
      onProgress({ phase: 'documents', done: i + 1, total: loaded.length });
    }
    // No change event per document: open realtime streams are told to read afresh instead.
    await markBulkLoad(tx, cms.clock.now());
  });
  // PostgreSQL draws ids from counters: they must continue after the highest id imported.
  await cms.store.continueIdsAfterCopy([...new Set(loaded.map((l) => l.entity.table))]);
  return result;
}

async function readManifest(root: string): Promise<ExportManifest> {
  const problem = await outsideFileProblem(root, MANIFEST_FILE);
  if (problem && problem !== 'is missing from the folder') refuse(`${MANIFEST_FILE} ${problem}`);
  const text = await Bun.file(path.join(root, MANIFEST_FILE))
    .text()
    .catch(() => null);
  if (text === null) refuse(`${root} has no ${MANIFEST_FILE}: it is not a folder written by cms export`);
  const manifest = JSON.parse(text!) as ExportManifest;
  // A single-locale export holds plain values where the database keeps every locale: it is for builds, not for loading.
  if (manifest.locale !== 'all')
    refuse(
      `this folder was exported with --locale ${manifest.locale}; import reads exports made with --locale all (the default)`,
    );
  return manifest;
}

/** Every document file of the folder, parsed and checked against the config. */
async function loadDocuments(cms: CMS, root: string): Promise<Loaded[]> {
  const collections = new Map(contentCollections(cms.config).map((c) => [c.slug, c]));
  const globals = new Map(cms.config.globals.map((g) => [g.slug, g]));
  const loaded: Loaded[] = [];
  for (const entry of (await fs.promises.readdir(root, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (entry.name === MANIFEST_FILE) continue;
    if (!entry.isDirectory()) refuse(`${entry.name} is not part of an export`);
    const owner = entry.name === GLOBALS_DIR ? globals : null;
    const collection = collections.get(entry.name);
    if (!owner && !collection) refuse(`folder "${entry.name}" is not a collection of this config`);
    for (const name of (await fs.promises.readdir(path.join(root, entry.name))).sort()) {
      const file = `${entry.name}/${name}`;
      if (!owner && !DOCUMENT_FILE.test(name)) {
        // Beside the media documents are the stored files they name; anything else is not from an export.
        if (entry.name === MEDIA_DIR) continue;
        refuse(`${file} is not a document file (<id>.json)`);
      }
      const base = name.replace(/\.json$/, '');
      const entity = owner ? owner.get(base) : collection!;
      if (!entity) refuse(`${file}: the config has no global "${base}"`);
      const problem = await outsideFileProblem(root, file);
      if (problem) refuse(`${file} ${problem}`);
      const doc = JSON.parse(
        await Bun.file(path.join(root, file))
          .text()
          .catch(() => 'null'),
      );
      if (!isObject(doc)) refuse(`${file} is not a JSON document`);
      const id = owner ? GLOBAL_ROW : Number(base);
      if (!owner && doc.id !== id) refuse(`${file}: a document file is named <id>.json after the id it holds`);
      checkKeys(entity!, doc, file);
      loaded.push({ entity: entity!, file, id, doc });
    }
  }
  return loaded;
}

/** What a read adds beside the fields: the id, times, the status and Payload's `_status`, a media file's url. */
function readKeysOf(entity: Entity): Set<string> {
  const keys = new Set(['createdAt', 'updatedAt']);
  if (entity.kind === 'collection') keys.add('id');
  if (entity.drafts) keys.add('status').add('_status');
  if (isUploadCollection(entity)) keys.add('url');
  return keys;
}

function checkKeys(entity: Entity, doc: Doc, file: string): void {
  const where = `${entity.kind === 'global' ? 'global' : 'collection'} "${entity.slug}"`;
  checkFields(
    entity.fields,
    doc,
    readKeysOf(entity),
    (name) => `${file} has field "${name}", which the config's ${where} does not have`,
  );
}

/** Unknown keys at any depth: in groups, array rows (which carry their own `id`), and each locale of a localized value. */
function checkFields(
  fields: SanitizedField[],
  value: Doc,
  extra: Set<string>,
  message: (name: string) => string,
  prefix = '',
): void {
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const [key, inner] of Object.entries(value)) {
    const field = byName.get(key);
    if (!field) {
      if (extra.has(key)) continue;
      refuse(message(prefix + key));
    }
    if (!field!.fields && !field!.blocks) continue;
    const values = field!.localized && isObject(inner) ? Object.values(inner) : [inner];
    for (const v of values) {
      const nested = field!.type !== 'group' && Array.isArray(v) ? v : [v];
      for (const row of nested) {
        if (!isObject(row)) continue;
        const rowFields = field!.type === 'blocks' ? blockOfRow(field!, row)?.fields : field!.fields;
        if (!rowFields) refuse(message(`${prefix}${key}.blockType`));
        checkFields(
          rowFields!,
          row,
          field!.type === 'array' ? new Set(['id']) : field!.type === 'blocks' ? BLOCK_ROW_KEYS : new Set(),
          message,
          `${prefix}${key}.`,
        );
      }
    }
  }
}

/**
 * The row of the document in the stored shape, every column set (a field the file leaves out is emptied),
 * inserted or replacing the same id. A collection with `timestamps: false` exports no times; its rows
 * are stamped with the time of the import.
 */
async function upsertDocument(tx: Queryable, { entity, id, doc }: Loaded, now: string): Promise<Doc> {
  let stored: Doc = { ...doc };
  delete stored._status;
  delete stored.id;
  if (isUploadCollection(entity)) stored = stripMediaURLs(stored);
  const row: Doc = { id, createdAt: now, updatedAt: now, ...docToRow(entity, stored, tx.dialect) };
  const columns = entityTable(entity).columns.map((c) => c.name);
  const values = columns.map((c) => row[c] ?? null);
  const updates = columns
    .filter((c) => c !== 'id')
    .map((c) => `${quote(c)} = excluded.${quote(c)}`)
    .join(', ');
  await tx.run(
    `INSERT INTO ${quote(entity.table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT ("id") DO UPDATE SET ${updates}`,
    values,
  );
  return { ...stored, id };
}
