/**
 * Rich text for an imported document, the same way for every source: its images imported first (the converters
 * ask for them by src), links to other imported documents made internal. A link whose target is not written yet
 * makes the document wait: once the run has written everything, it is converted and saved again.
 */
import * as operations from '../operations/index.ts';
import type { ConvertOptions, Lossy, RichTextRefs } from '../richtext/from-html.ts';
import { mappedId, PLANNED, relationValue, type ImportRun } from './import-run.ts';

export type Converter = (text: string, options: ConvertOptions) => { value: unknown; lossy: Lossy };

export type ContentSource = {
  text: string;
  refs: (text: string) => RichTextRefs;
  convert: Converter;
  /** The media document for an image, imported once. */
  image: (src: string, alt: string) => Promise<string | null>;
  /** The source id of the imported document a link points at, else null (an external link). */
  target: (href: string) => string | null;
};

export async function convertContent(run: ImportRun, source: ContentSource) {
  const images = new Map<string, string | null>();
  for (const image of source.refs(source.text).images)
    if (!images.has(image.src)) images.set(image.src, await source.image(image.src, image.alt));
  let waiting = false;
  const options: ConvertOptions = {
    linkTarget: (href) => {
      const target = source.target(href);
      if (!target) return null;
      const mapped = mappedId(run, target);
      if (!mapped || (mapped.id === PLANNED && !run.dryRun)) {
        waiting = true;
        return null;
      }
      return { relationTo: mapped.collection, value: relationValue(mapped.id) };
    },
    imageTarget: (src) => {
      const id = images.get(src);
      return id ? { relationTo: 'media', value: relationValue(id) } : null;
    },
  };
  const { value, lossy } = source.convert(source.text, options);
  return { value, lossy, waiting: waiting && !run.dryRun };
}

/** Converts a waiting document's content again, now that every target has its id, and saves it. */
export async function relinkContent(
  run: ImportRun,
  sourceId: string,
  draft: boolean,
  content: () => Promise<{ value: unknown }>,
): Promise<void> {
  const mapped = mappedId(run, sourceId);
  if (!mapped) return;
  try {
    const { value } = await content();
    await operations.update(run.ctx, {
      collection: mapped.collection,
      id: mapped.id,
      data: { content: value },
      draft,
      depth: 0,
    });
  } catch (error) {
    run.report.errors.push({ sourceId, message: (error as Error).message });
  }
}
