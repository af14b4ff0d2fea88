/**
 * Uploads a file into `media` or another upload collection, top to bottom: authorize (before a byte is read) → receive (staged on
 * disk, size-limited) → check the type from the bytes → dimensions and image sizes → store the files →
 * create the document (the same create operation as JSON, `internal` so it may set the upload's fields)
 * → remove the staged files. Whatever fails, nothing stays behind in storage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MEDIA_SLUG } from '../config/builtin-collections.ts';
import { isUploadCollection, MEDIA_SYSTEM_FIELDS, type SanitizedUpload } from '../config/upload-collections.ts';
import { badRequest, notFound } from '../errors.ts';
import type { SanitizedCollection } from '../config/types.ts';
import type { CMS } from '../cms.ts';
import { checkAccess } from '../access/check-access.ts';
import { loadSharp } from '../uploads/sharp-loader.ts';
import { sniffUploadType, type DetectedType } from '../uploads/upload-type.ts';
import {
  frameOf,
  makeImageSizes,
  readDimensions,
  type Dimensions,
  type Frame,
  type MadeSize,
} from '../uploads/image-sizes.ts';
import { sizeFileName, storedFileName } from '../uploads/file-names.ts';
import { removeQuietly, stagingDirOf, type StagedFile, type UploadLimits } from '../uploads/staging.ts';
import { mediaFileKeys, removeStoredFiles } from '../uploads/media-files.ts';
import { toId } from '../fields/validate.ts';
import { formFieldsToData } from '../uploads/form-fields.ts';
import { getCollection } from './steps/entities.ts';
import { create } from './create.ts';
import { update } from './update.ts';
import { loadReadable, loadStored } from './steps/load-stored.ts';
import type { OperationContext } from '../operation-context.ts';
import { documentTurnKey, inDocumentTurn } from './steps/document-turn.ts';

type Doc = Record<string, unknown>;
/** The staged file and the field values: as data (Local API) or as the text parts of a form (REST). */
export type ReceivedUpload = { file: StagedFile; data?: Doc; form?: Record<string, string> };
/** Reads the file (and any field values) into the staging folder under the limits it is given. */
export type ReceiveUpload = (limits: UploadLimits) => Promise<ReceivedUpload>;
/** `collection`: any upload collection (default `media`). */
export type UploadArgs = {
  receive: ReceiveUpload;
  depth?: number;
  collection?: string;
  /** An import keeps the source's id and creation time (docs/moving-in.md). */
  keep?: { id?: number; createdAt?: string };
};

export async function upload(ctx: OperationContext, args: UploadArgs): Promise<Doc> {
  const media = uploadCollection(ctx, args.collection);
  await checkAccess(ctx, media, 'create');
  const received = await args.receive(await uploadLimits(ctx.cms, media.upload!));
  return storeAndWrite(ctx, media, received, (data) =>
    create(ctx, { collection: media.slug, data, depth: args.depth, internal: true, keep: args.keep }),
  );
}

function uploadCollection(ctx: OperationContext, slug = MEDIA_SLUG): SanitizedCollection {
  const collection = getCollection(ctx.cms, slug);
  if (!isUploadCollection(collection)) throw badRequest(`${slug} is not an upload collection.`);
  return collection;
}

/**
 * Replaces the file of a document of an upload collection (multipart `PATCH /media/:id`, Payload's `update({ file })`):
 * the new file and its sizes are stored, the document updated through the same update operation (its
 * access, hooks and events), and only once that has committed are the old files removed. A failure
 * leaves the document and its old files as they were.
 */
export async function replaceUpload(ctx: OperationContext, args: UploadArgs & { id: number | string }): Promise<Doc> {
  const media = uploadCollection(ctx, args.collection);
  const id = toId(args.id);
  if (id === null) throw notFound('Document not found.');
  // The files to displace are the document's as it is when this replacement's turn comes (document-turn.ts).
  return inDocumentTurn(ctx.cms, documentTurnKey(media.slug, id), () => replaceInTurn(ctx, media, id, args));
}

async function replaceInTurn(
  ctx: OperationContext,
  media: SanitizedCollection,
  id: number,
  args: UploadArgs,
): Promise<Doc> {
  const existing = await loadReadable(ctx, media, id);
  await checkAccess(ctx, media, 'update', { id, doc: existing });
  const received = await args.receive(await uploadLimits(ctx.cms, media.upload!));
  const doc = await storeAndWrite(ctx, media, received, (data) =>
    update(ctx, { collection: media.slug, id, data, depth: args.depth, internal: true }),
  );
  const kept = new Set(mediaFileKeys(await loadStored(ctx, media, id, null)));
  await removeStoredFiles(
    ctx.cms,
    mediaFileKeys(existing).filter((key) => !kept.has(key)),
    `${media.slug} document ${id} got a new file`,
  );
  return doc;
}

/** Checks and stores the received file and its image sizes, then `write`s the document; whatever fails, no new file stays in storage. */
async function storeAndWrite(
  ctx: OperationContext,
  media: SanitizedCollection,
  received: ReceivedUpload,
  write: (data: Doc) => Promise<Doc>,
): Promise<Doc> {
  const staged = [received.file.path];
  const stored: string[] = [];
  try {
    const data = received.form ? formFieldsToData(media, received.form) : { ...received.data };
    refuseUploadFields(data);
    if (received.file.size === 0) throw badRequest('The file is empty.', 'file');
    const type = await sniffUploadType(received.file.path, media.upload!.mimeTypes);
    // A new file is a new picture: its frame is what this request sends, else none.
    const frame = frameOf({ focalX: data.focalX ?? null, focalY: data.focalY ?? null, crop: data.crop ?? null });
    const image = await processImage(media.upload!, received.file, type, frame);
    staged.push(...image.sizes.map((s) => s.path));
    const record = uploadRecord(received.file, type, image.dimensions, image.sizes);
    const files = [
      { key: record.filename, path: received.file.path, size: received.file.size },
      ...image.sizes.map((s) => ({ key: record.sizeFiles[s.name], path: s.path, size: s.filesize })),
    ];
    for (const file of files) {
      await ctx.cms.storage.put(file.key, Bun.file(file.path), { contentType: type.mimeType, size: file.size });
      stored.push(file.key);
    }
    return await write({ ...data, ...frame, ...record.fields });
  } catch (error) {
    await removeStoredFiles(ctx.cms, stored, 'an upload failed');
    throw error;
  } finally {
    await Promise.all(staged.map(removeQuietly));
  }
}

async function uploadLimits(cms: CMS, options: SanitizedUpload): Promise<UploadLimits> {
  const stagingDir = stagingDirOf(cms.storage, cms.config.dataDir);
  await fs.promises.mkdir(stagingDir, { recursive: true });
  return { maxFileSize: options.maxFileSize, stagingDir };
}

/** The upload sets these itself; a form part naming one is refused like a PATCH would be. */
function refuseUploadFields(data: Doc): void {
  for (const key of Object.keys(data)) {
    if (MEDIA_SYSTEM_FIELDS.has(key)) throw badRequest(`"${key}" is set by the upload and cannot be sent.`, key);
  }
}

async function processImage(
  options: SanitizedUpload,
  file: StagedFile,
  type: DetectedType,
  frame: Frame,
): Promise<{ dimensions: Dimensions | null; sizes: MadeSize[] }> {
  const sharp = type.mimeType.startsWith('image/') ? await loadSharp() : null;
  if (!sharp) return { dimensions: null, sizes: [] };
  const dimensions = await readDimensions(sharp, file.path, type.mimeType);
  const stagingDir = path.dirname(file.path);
  const sizes = dimensions
    ? await makeImageSizes(sharp, file.path, type.mimeType, options.imageSizes, stagingDir, dimensions, frame)
    : [];
  return { dimensions, sizes };
}

function uploadRecord(file: StagedFile, type: DetectedType, dimensions: Dimensions | null, made: MadeSize[]) {
  const filename = storedFileName(file.originalName, type.extension);
  const sizeFiles: Record<string, string> = {};
  const sizes: Doc = {};
  for (const size of made) {
    sizeFiles[size.name] = sizeFileName(filename, size.name);
    sizes[size.name] = {
      filename: sizeFiles[size.name],
      width: size.width,
      height: size.height,
      filesize: size.filesize,
      mimeType: type.mimeType,
    };
  }
  const fields = {
    filename,
    originalName: file.originalName,
    mimeType: type.mimeType,
    filesize: file.size,
    width: dimensions?.width ?? null,
    height: dimensions?.height ?? null,
    sizes,
  };
  return { filename, sizeFiles, fields };
}
