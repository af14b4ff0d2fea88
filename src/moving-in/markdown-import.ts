/**
 * `cms import markdown DIR` (docs/moving-in.md): one document per `.md` / `.mdx` file of the folder tree, in one
 * collection (--collection, else the folder's name). Front matter becomes typed fields, the body rich text (fenced
 * code stays code: an image written inside it is text), images in the body and image paths in front matter become
 * media. A link from one file to another becomes an internal link.
 */
import path from 'node:path';
import type { CMS } from '../cms.ts';
import { markdownRefs, markdownToLexical } from '../richtext/from-markdown.ts';
import { convertContent, relinkContent } from './convert-content.ts';
import { hashOf, relationValue, startRun, writeDocument, type ImportRun, type Progress } from './import-run.ts';
import { importMedia } from './media-import.ts';
import { imageFileOf, markdownMediaLoader, type MarkdownMediaOptions } from './markdown-media.ts';
import {
  collectionOfFolder,
  frontMatterFields,
  isDraft,
  isMarkdownFile,
  listMarkdownFiles,
  readMarkdownFile,
  slugOfPath,
  type KeyField,
  type MarkdownFile,
} from './markdown-shape.ts';
import { checkNeededConfig } from './needed-config.ts';
import { addLossy } from './report.ts';

export type MarkdownImportOptions = {
  dir: string;
  collection?: string;
  root?: string;
  publicDir?: string;
  dryRun: boolean;
  progress?: Progress;
};

/** The folder read: its files (a file whose front matter does not parse is an error of its own) and their fields. */
export async function readMarkdownFolder(dir: string) {
  const { files: names, links } = await listMarkdownFiles(dir);
  const files: MarkdownFile[] = [];
  const broken: { sourceId: string; message: string }[] = links.map((l) => ({
    sourceId: l,
    message: 'is a symbolic link (only regular files are read)',
  }));
  for (const name of names)
    await readMarkdownFile(dir, name).then(
      (file) => files.push(file),
      (error: Error) => broken.push({ sourceId: name, message: error.message }),
    );
  return { files, broken, fields: frontMatterFields(files) };
}

export async function importMarkdown(cms: CMS, options: MarkdownImportOptions): Promise<ImportRun> {
  const dir = path.resolve(options.dir);
  const collection = collectionOfFolder(dir, options.collection);
  const { files, broken, fields } = await readMarkdownFolder(dir);
  checkNeededConfig(cms, {
    collections: { [collection]: ['slug', 'content', ...fields.map((f) => f.field.name)], media: ['alt'] },
    globals: {},
  });
  const run = await startRun(cms, {
    // Keyed by collection and path inside the folder, so a folder moved or checked out elsewhere is the same source.
    source: `markdown:${collection}`,
    kind: 'markdown',
    dryRun: options.dryRun,
    progress: options.progress,
  });
  for (const problem of broken) {
    run.report.errors.push(problem);
    run.report.collections[collection] ??= { created: 0, updated: 0, unchanged: 0, failed: 0 };
    run.report.collections[collection].failed++;
  }
  const media = {
    root: path.resolve(options.root ?? dir),
    publicDir: options.publicDir && path.resolve(options.publicDir),
  };
  const job = new MarkdownJob(run, dir, collection, fields, media, files);
  const relink: MarkdownFile[] = [];
  for (const [i, file] of files.entries()) {
    if (await job.write(file)) relink.push(file);
    run.progress({ phase: 'documents', done: i + 1, total: files.length });
  }
  for (const file of relink) await job.relink(file);
  return run;
}

class MarkdownJob {
  private readonly load: ReturnType<typeof markdownMediaLoader>;
  private readonly relatives: Set<string>;

  constructor(
    private readonly run: ImportRun,
    private readonly dir: string,
    private readonly collection: string,
    private readonly fields: KeyField[],
    private readonly media: MarkdownMediaOptions,
    files: MarkdownFile[],
  ) {
    this.load = markdownMediaLoader(media);
    this.relatives = new Set(files.map((f) => f.relative));
  }

  /** Writes one file's document; true when a link in it waits for a file written later. */
  async write(file: MarkdownFile): Promise<boolean> {
    const slug =
      typeof file.data.slug === 'string' && file.data.slug.trim() ? file.data.slug.trim() : slugOfPath(file.relative);
    const from = `/${slugOfPath(file.relative).replace(/(^|\/)index$/, '')}/`.replace(/\/+/g, '/');
    let waiting = false;
    await writeDocument(this.run, {
      sourceId: file.relative,
      collection: this.collection,
      // The file and how its keys are typed; not the other files' values (a new tag elsewhere changes nothing here).
      hash: hashOf({ format: 1, text: file.text, types: this.fields.map((f) => [f.key, f.field.name, f.field.type]) }),
      status: isDraft(file.data) ? 'draft' : 'published',
      redirect: isDraft(file.data) ? undefined : { from, to: `/${this.collection}/${slug}` },
      build: async () => {
        const converted = await this.richText(file);
        waiting = converted.waiting;
        addLossy(this.run.report, `${this.collection}/${slug}`, converted.lossy);
        return { ...(await this.values(file)), slug, content: converted.value };
      },
    });
    return waiting;
  }

  private fileDir(file: MarkdownFile): string {
    return path.dirname(path.join(this.dir, file.relative));
  }

  /** An image the file names, imported once; null when it is a URL or cannot be had. */
  private async image(file: MarkdownFile, src: string, alt: string): Promise<string | null> {
    const relative = imageFileOf(src, this.fileDir(file), this.media);
    if (relative === null) return null;
    return importMedia(this.run, relative, this.load(relative), alt);
  }

  private async values(file: MarkdownFile): Promise<Record<string, unknown>> {
    const values: Record<string, unknown> = {};
    for (const { key, field } of this.fields) {
      const value = file.data[key];
      if (value === undefined || value === null) continue;
      if (field.type === 'date') values[field.name] = new Date(value as string).toISOString();
      else if (field.type === 'upload') {
        const id = await this.image(file, String(value), '');
        values[field.name] = id ? relationValue(id) : null;
      } else if (field.type === 'text' || field.type === 'textarea') values[field.name] = String(value);
      else values[field.name] = value;
    }
    return values;
  }

  private richText(file: MarkdownFile) {
    return convertContent(this.run, {
      text: file.body,
      refs: markdownRefs,
      convert: markdownToLexical,
      image: (src, alt) => this.image(file, src, alt),
      target: (href) => this.targetOf(file, href),
    });
  }

  /** The file a relative link points at (`../other.md#part`), when it is one of the folder's. */
  private targetOf(file: MarkdownFile, href: string): string | null {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/') || href.startsWith('#')) return null;
    const clean = href.split(/[?#]/)[0]!;
    if (!isMarkdownFile(clean)) return null;
    const relative = path
      .relative(this.dir, path.resolve(this.fileDir(file), decodeURI(clean)))
      .split(path.sep)
      .join('/');
    return this.relatives.has(relative) ? relative : null;
  }

  relink(file: MarkdownFile): Promise<void> {
    return relinkContent(this.run, file.relative, isDraft(file.data), () => this.richText(file));
  }
}
