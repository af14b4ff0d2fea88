/**
 * Upload collections: `upload: true | { mimeTypes, imageSizes, maxFileSize }` on any collection (the
 * built-in `media` is one) gives it the file fields below, multipart `POST /:collection` and
 * `/:collection/file/:filename`. Options not given fall back to the config's `upload` settings.
 */
import type { CollectionConfig, Entity, Field, ImageSize, SanitizedCollection, SanitizedConfig } from './types.ts';

type Fail = (key: string, message: string) => never;
export type SanitizedUpload = { mimeTypes: string[]; imageSizes: ImageSize[]; maxFileSize: number };
export type UploadDefaults = Pick<SanitizedConfig['upload'], 'mimeTypes' | 'imageSizes' | 'maxFileSize'>;

/** Fields only the upload itself sets: never accepted from input. */
export const MEDIA_SYSTEM_FIELDS = new Set([
  'filename',
  'originalName',
  'mimeType',
  'filesize',
  'width',
  'height',
  'sizes',
]);

export function uploadFileFields(): Field[] {
  const readOnly: Partial<Field> = { admin: { readOnly: true } };
  return [
    { name: 'filename', type: 'text', unique: true, ...readOnly },
    { name: 'originalName', type: 'text', ...readOnly },
    { name: 'mimeType', type: 'text', ...readOnly },
    { name: 'filesize', type: 'number', ...readOnly },
    { name: 'width', type: 'number', ...readOnly },
    { name: 'height', type: 'number', ...readOnly },
    { name: 'sizes', type: 'json', ...readOnly },
  ];
}

/** Where the image sizes look (docs/media.md): percent of the original, as in Payload; the media editor sets them. */
export function frameFields(): Field[] {
  return [
    { name: 'focalX', type: 'number', min: 0, max: 100, admin: { component: 'focal' } },
    { name: 'focalY', type: 'number', min: 0, max: 100, admin: { component: 'focal' } },
    { name: 'crop', type: 'json', admin: { component: 'focal' } },
  ];
}
const FILE_FIELD_NAMES = new Set([...MEDIA_SYSTEM_FIELDS, 'focalX', 'focalY', 'crop']);

export const isUploadCollection = (entity: Entity): entity is SanitizedCollection & { upload: SanitizedUpload } =>
  entity.kind === 'collection' && entity.upload !== null;

/** A project collection with `upload`: the file fields first, then its own (which may not reuse their names). */
export function withUploadFields(c: CollectionConfig, key: string, fail: Fail): CollectionConfig {
  if (!c.upload) return c;
  const own = Array.isArray(c.fields) ? c.fields : [];
  own.forEach((f, i) => {
    if (FILE_FIELD_NAMES.has(f?.name as string))
      fail(`${key}.fields[${i}].name`, `"${f.name}" is a field of every upload collection`);
  });
  return {
    ...c,
    fields: [...uploadFileFields(), ...own, ...frameFields()],
    admin: { useAsTitle: 'filename', ...c.admin },
  };
}

export function sanitizeUploadOption(
  value: CollectionConfig['upload'],
  key: string,
  defaults: UploadDefaults,
  fail: Fail,
): SanitizedUpload | null {
  if (value === undefined || value === false) return null;
  if (value === true) return { ...defaults };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(`${key}.upload`, 'must be true or an object of upload options');
  const mimeTypes = value.mimeTypes ?? defaults.mimeTypes;
  if (!Array.isArray(mimeTypes) || !mimeTypes.every((m) => typeof m === 'string'))
    fail(`${key}.upload.mimeTypes`, 'must be a list of MIME types');
  const maxFileSize = value.maxFileSize ?? defaults.maxFileSize;
  if (typeof maxFileSize !== 'number' || !(maxFileSize > 0))
    fail(`${key}.upload.maxFileSize`, 'must be a positive number');
  const imageSizes =
    value.imageSizes === undefined
      ? defaults.imageSizes
      : sanitizeImageSizes(value.imageSizes, `${key}.upload.imageSizes`, fail);
  return { mimeTypes, imageSizes, maxFileSize };
}

export function sanitizeImageSizes(list: unknown, key: string, fail: Fail): ImageSize[] {
  if (!Array.isArray(list)) fail(key, 'must be a list');
  return (list as ImageSize[]).map((s, i) => {
    if (!s || typeof s.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(s.name))
      fail(`${key}[${i}].name`, 'must be a simple name');
    if (typeof s.width !== 'number' || !(s.width > 0)) fail(`${key}[${i}].width`, 'must be a positive number');
    if (s.height !== undefined && (typeof s.height !== 'number' || !(s.height > 0)))
      fail(`${key}[${i}].height`, 'must be a positive number');
    return { name: s.name, width: s.width, height: s.height };
  });
}
