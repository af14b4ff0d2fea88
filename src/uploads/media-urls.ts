/** The `url` of a media document and of each of its sizes (SPEC "media"). */
import type { CMS } from '../cms.ts';

type Doc = Record<string, unknown>;

export function fileURL(cms: CMS, filename: string): string {
  const custom = cms.storage?.url?.(filename);
  if (custom) return custom;
  return `${cms.config.serverURL ?? ''}${cms.config.routes.api}/media/file/${encodeURIComponent(filename)}`;
}

export function decorateMedia(cms: CMS, doc: Doc): Doc {
  if (typeof doc.filename !== 'string') return doc;
  const out: Doc = { ...doc, url: fileURL(cms, doc.filename) };
  if (doc.sizes && typeof doc.sizes === 'object') {
    const sizes: Record<string, unknown> = {};
    for (const [name, size] of Object.entries(doc.sizes as Record<string, Doc | null>)) {
      sizes[name] = size && typeof size.filename === 'string'
        ? { width: size.width ?? null, height: size.height ?? null, url: fileURL(cms, size.filename), filename: size.filename }
        : null;
    }
    out.sizes = sizes;
  }
  return out;
}
