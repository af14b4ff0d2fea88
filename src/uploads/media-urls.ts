/**
 * `url` and `sizes.<name>.url` on media documents as they are read (docs/media.md): the storage
 * adapter's public URL when it has one (S3 `publicUrl`, a CDN), else the file route of this API,
 * absolute when `serverURL` is set.
 */
import type { CMS } from '../cms.ts';

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

export function mediaFileURL(cms: CMS, filename: string, collection: string): string {
  const fromStorage = cms.storage?.url?.(filename);
  if (fromStorage) return fromStorage;
  return `${cms.config.serverURL ?? ''}${cms.config.routes.api}/${collection}/file/${encodeURIComponent(filename)}`;
}

/** The frame of an image (focal point and crop): shown once set, so media documents keep their plain shape until then. */
const FRAME_FIELDS = ['focalX', 'focalY', 'crop'];

/** `collection`: the upload collection the document is of (its file route). */
export function decorateMedia(cms: CMS, doc: Doc, collection: string): Doc {
  const out: Doc = { ...doc };
  for (const name of FRAME_FIELDS) if (out[name] === null) delete out[name];
  if ('filename' in doc)
    out.url = typeof doc.filename === 'string' && doc.filename ? mediaFileURL(cms, doc.filename, collection) : null;
  if (isObject(doc.sizes)) {
    const sizes: Doc = {};
    for (const [name, size] of Object.entries(doc.sizes)) {
      sizes[name] =
        isObject(size) && typeof size.filename === 'string'
          ? { ...size, url: mediaFileURL(cms, size.filename, collection) }
          : size;
    }
    out.sizes = sizes;
  }
  return out;
}

/** The stored shape of a media document read with `decorateMedia` (import of exported documents): the URLs are derived, never stored. */
export function stripMediaURLs(doc: Doc): Doc {
  const out: Doc = { ...doc };
  delete out.url;
  if (isObject(doc.sizes)) {
    out.sizes = Object.fromEntries(
      Object.entries(doc.sizes).map(([name, size]) => {
        if (!isObject(size)) return [name, size];
        const { url: _url, ...stored } = size;
        return [name, stored];
      }),
    );
  }
  return out;
}
