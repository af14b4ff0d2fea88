/**
 * `cms import wordpress FILE` (docs/moving-in.md): authors, categories and tags, attachments as media, then every
 * post, page and custom post type with its rich text, then the menus. Statuses: publish → published;
 * draft, pending and private → draft; future → draft with a scheduled publish at its date. A link between two
 * imported documents becomes an internal link: documents whose target was written after them are linked again
 * at the end of the run.
 */
import type { CMS } from '../cms.ts';
import * as operations from '../operations/index.ts';
import { htmlRefs, htmlToLexical } from '../richtext/from-html.ts';
import { convertContent, relinkContent } from './convert-content.ts';
import { forEachAtOnce, importMedia, MEDIA_AT_ONCE } from './media-import.ts';
import {
  hashOf,
  mappedId,
  relationValue,
  startRun,
  writeDocument,
  writeGlobal,
  type ImportRun,
  type Progress,
} from './import-run.ts';
import { pathOfURL, slugify, uniqueSlugs } from './names.ts';
import { checkNeededConfig } from './needed-config.ts';
import { addLossy, countUnmapped } from './report.ts';
import { wordpressMediaLoader } from './wordpress-media.ts';
import {
  collectionOfType,
  isContent,
  isMenuItem,
  MENUS_GLOBAL,
  neededOf,
  shapeOf,
  TAXONOMIES,
} from './wordpress-shape.ts';
import { readWxr, type WxrItem, type WxrSite, type WxrTerm } from './wxr-read.ts';

export type WordPressImportOptions = {
  file: string;
  uploads?: string;
  fetchMedia: boolean;
  dryRun: boolean;
  progress?: Progress;
};

export async function readWordPressFile(file: string): Promise<WxrSite> {
  return readWxr(await Bun.file(file).text());
}

export async function importWordPress(cms: CMS, options: WordPressImportOptions): Promise<ImportRun> {
  const site = await readWordPressFile(options.file);
  const shape = shapeOf(site);
  checkNeededConfig(cms, neededOf(shape));
  const siteURL = site.baseBlogUrl || site.baseSiteUrl || site.link;
  const run = await startRun(cms, {
    source: `wordpress:${siteURL}`,
    kind: 'wordpress',
    dryRun: options.dryRun,
    progress: options.progress,
  });
  const job = new WordPressJob(run, site, siteURL, options);
  await job.authors();
  await job.terms();
  await job.attachments();
  await job.contents(shape.types.map((t) => t.type));
  await job.menus(shape.menus);
  return run;
}

const isoOf = (date: string): string | undefined => {
  if (!date || date.startsWith('0000')) return undefined;
  const time = Date.parse(`${date.replace(' ', 'T')}Z`);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
};
/** The date WordPress shows: GMT when it has one (drafts often do not), else the local date taken as UTC. */
const dateOf = (item: WxrItem) => isoOf(item.dateGmt) ?? isoOf(item.date);
const relation = (id: string | null | undefined) => (id ? relationValue(id) : null);

class WordPressJob {
  private readonly users = new Map<string, string>();
  private readonly termsBySlug = new Map<string, WxrTerm>();
  private readonly attachmentMedia = new Map<string, string | null>();
  private readonly itemsById = new Map<string, WxrItem>();
  /** Attachments by their file's URL (the first of each), where images in content find their media. */
  private readonly attachmentsByURL = new Map<string, WxrItem>();
  private readonly slugOf = new Map<string, string>();
  /** Old URL path (and `?p=ID` forms) → the source id of the document that lived there. */
  private readonly permalinks = new Map<string, string>();
  private readonly load: ReturnType<typeof wordpressMediaLoader>;

  constructor(
    private readonly run: ImportRun,
    private readonly site: WxrSite,
    private readonly siteURL: string,
    options: WordPressImportOptions,
  ) {
    this.load = wordpressMediaLoader({ uploads: options.uploads, fetchMedia: options.fetchMedia, siteURL });
    const slugs = uniqueSlugs();
    for (const item of site.items) {
      this.itemsById.set(item.id, item);
      const fileURL = item.type === 'attachment' ? item.attachmentUrl || item.guid : '';
      if (fileURL && !this.attachmentsByURL.has(fileURL)) this.attachmentsByURL.set(fileURL, item);
      if (!isContent(item)) continue;
      const collection = collectionOfType(item.type);
      this.slugOf.set(
        item.id,
        slugs(collection, slugify(item.slug) || slugify(item.title) || `${item.type}-${item.id}`),
      );
      for (const url of [item.link, item.guid]) {
        const path = pathOfURL(url, siteURL);
        if (path) this.permalinks.set(this.normal(path), `post:${item.id}`);
      }
    }
  }

  /** Paths compared without a trailing slash. */
  private normal(path: string): string {
    return path.length > 1 ? path.replace(/\/+$/, '').replace(/\/\?/, '?') : path;
  }

  async authors(): Promise<void> {
    const { run } = this;
    for (const author of this.site.authors) {
      const email = (author.email || `${slugify(author.login) || 'author'}@wordpress.invalid`).toLowerCase();
      const sourceId = `author:${author.login}`;
      // An account that already exists here (often the admin running the import) is the author's account.
      if (!run.mapping.has(sourceId)) {
        const found = await operations.find(run.ctx, { collection: 'users', where: { email: { equals: email } } });
        const existing = found.docs[0];
        if (existing) {
          this.users.set(author.login, String(existing.id));
          continue;
        }
      }
      const id = await writeDocument(run, {
        sourceId,
        collection: 'users',
        hash: hashOf(author),
        build: () => ({ email, name: author.displayName || author.login }),
      });
      if (id) this.users.set(author.login, id);
    }
  }

  async terms(): Promise<void> {
    for (const [taxonomy, collection] of Object.entries(TAXONOMIES)) {
      const terms = this.site.terms.filter((t) => t.taxonomy === taxonomy);
      for (const t of terms) this.termsBySlug.set(`${taxonomy}:${t.slug}`, t);
      for (const [i, term] of parentsFirst(
        terms,
        (t) => t.slug,
        (t) => t.parent,
      ).entries()) {
        const parent = term.parent ? mappedId(this.run, `term:${taxonomy}:${term.parent}`) : null;
        const ancestors = this.termPath(taxonomy, term);
        await writeDocument(this.run, {
          sourceId: `term:${taxonomy}:${term.slug}`,
          collection,
          hash: hashOf(term),
          redirect: {
            from: `/${taxonomy === 'category' ? 'category' : 'tag'}/${ancestors}/`,
            to: `/${collection}/${term.slug}`,
          },
          build: () => ({
            title: term.name,
            slug: term.slug,
            description: term.description || undefined,
            ...(taxonomy === 'category' ? { parent: relation(parent?.id) } : {}),
          }),
        });
        this.run.progress({ phase: collection, done: i + 1, total: terms.length });
      }
    }
  }

  /** `news/local-news`: a category's archive path below /category/. */
  private termPath(taxonomy: string, term: WxrTerm): string {
    const parts = [term.slug];
    let parent = term.parent;
    for (let depth = 0; parent && depth < 20; depth++) {
      parts.unshift(parent);
      parent = this.termsBySlug.get(`${taxonomy}:${parent}`)?.parent ?? '';
    }
    return parts.join('/');
  }

  async attachments(): Promise<void> {
    const attachments = this.site.items.filter((i) => i.type === 'attachment');
    let done = 0;
    await forEachAtOnce(attachments, MEDIA_AT_ONCE, async (item) => {
      const url = item.attachmentUrl || item.guid;
      const id = url
        ? await importMedia(this.run, url, this.load(url), item.meta._wp_attachment_image_alt ?? '')
        : null;
      this.attachmentMedia.set(item.id, id);
      this.run.progress({ phase: 'media', done: ++done, total: attachments.length });
    });
  }

  async contents(types: string[]): Promise<void> {
    const items = types.flatMap((type) => {
      const ofType = this.site.items.filter((i) => i.type === type && isContent(i));
      return type === 'page'
        ? parentsFirst(
            ofType,
            (i) => i.id,
            (i) => (i.parent === '0' ? '' : i.parent),
          )
        : ofType;
    });
    const relink: WxrItem[] = [];
    for (const [i, item] of items.entries()) {
      if (await this.content(item)) relink.push(item);
      this.run.progress({ phase: 'documents', done: i + 1, total: items.length });
    }
    // Links to documents written after the one linking: every target has its id now.
    for (const item of relink) await this.relink(item);
  }

  /** Writes one post, page or custom post type item; true when a link in it waits for a later document. */
  private async content(item: WxrItem): Promise<boolean> {
    const { run } = this;
    const collection = collectionOfType(item.type);
    const slug = this.slugOf.get(item.id)!;
    for (const key of Object.keys(item.meta)) if (!key.startsWith('_')) countUnmapped(run.report, collection, key);
    const from = pathOfURL(item.link, this.siteURL);
    const published = item.status === 'publish';
    let waiting = false;
    await writeDocument(run, {
      sourceId: `post:${item.id}`,
      collection,
      hash: hashOf({ format: 1, item }),
      status: published ? 'published' : 'draft',
      publishAt: item.status === 'future' ? dateOf(item) : undefined,
      createdAt: dateOf(item),
      redirect: published && from && !from.includes('?') ? { from, to: `/${collection}/${slug}` } : undefined,
      build: async () => {
        const converted = await this.richText(item);
        waiting = converted.waiting;
        addLossy(run.report, `${collection}/${slug}`, converted.lossy);
        return this.values(item, slug, converted.value);
      },
    });
    return waiting;
  }

  private values(item: WxrItem, slug: string, content: unknown): Record<string, unknown> {
    const thumbnail = item.meta._thumbnail_id;
    const values: Record<string, unknown> = {
      title: item.title || slug,
      slug,
      content,
      excerpt: item.excerpt || undefined,
      publishedAt: dateOf(item),
      author: relation(this.users.get(item.creator)),
      featuredImage: relation(thumbnail ? this.attachmentMedia.get(thumbnail) : null),
    };
    if (item.type === 'post')
      for (const [taxonomy, field] of Object.entries(TAXONOMIES))
        values[field] = item.terms
          .filter((t) => t.domain === taxonomy)
          .map((t) => relation(mappedId(this.run, `term:${taxonomy}:${t.slug}`)?.id))
          .filter((id) => id !== null);
    if (item.type === 'page') {
      const parent = item.parent !== '0' ? mappedId(this.run, `post:${item.parent}`) : null;
      values.parent = relation(parent?.id);
    }
    return values;
  }

  /** The content as rich text: its images imported first, links to imported documents made internal. */
  private richText(item: WxrItem) {
    return convertContent(this.run, {
      text: item.content,
      refs: htmlRefs,
      convert: htmlToLexical,
      image: (src, alt) => this.image(src, alt),
      target: (href) => this.targetOf(href),
    });
  }

  /** An image in content: the attachment it is (or a resized copy of), else the file its URL names. */
  private async image(src: string, alt: string): Promise<string | null> {
    const original = src.replace(/-\d+x\d+(\.\w+)$/, '$1');
    for (const url of src === original ? [src] : [src, original]) {
      const attachment = this.attachmentsByURL.get(url);
      if (attachment && this.attachmentMedia.get(attachment.id)) return this.attachmentMedia.get(attachment.id)!;
    }
    return importMedia(this.run, src, this.load(src), alt);
  }

  /** The source id of the imported document an href points at, or null for any other link. */
  private targetOf(href: string): string | null {
    const path = pathOfURL(href, this.siteURL);
    if (!path) return null;
    try {
      if (new URL(href, this.siteURL).host !== new URL(this.siteURL).host) return null;
    } catch {
      return null;
    }
    const byPath = this.permalinks.get(this.normal(path));
    if (byPath) return byPath;
    const id = /[?&](?:p|page_id)=(\d+)/.exec(path)?.[1];
    return id && this.itemsById.has(id) ? `post:${id}` : null;
  }

  private relink(item: WxrItem): Promise<void> {
    return relinkContent(this.run, `post:${item.id}`, item.status !== 'publish', () => this.richText(item));
  }

  async menus(menus: { slug: string; field: string }[]): Promise<void> {
    if (!menus.length) return;
    const data: Record<string, { label: string; link: string }[]> = {};
    for (const menu of menus) {
      data[menu.field] = this.site.items
        .filter((i) => isMenuItem(i) && i.terms.some((t) => t.domain === 'nav_menu' && t.slug === menu.slug))
        .sort((a, b) => a.menuOrder - b.menuOrder)
        .map((i) => this.menuEntry(i))
        .filter((entry) => entry !== null);
    }
    await writeGlobal(this.run, MENUS_GLOBAL, data, hashOf(data));
  }

  private menuEntry(item: WxrItem): { label: string; link: string } | null {
    const kind = item.meta._menu_item_type;
    const objectId = item.meta._menu_item_object_id ?? '';
    if (kind === 'post_type') {
      const target = this.itemsById.get(objectId);
      if (!target || !isContent(target)) return null;
      return {
        label: item.title || target.title,
        link: `/${collectionOfType(target.type)}/${this.slugOf.get(objectId)}`,
      };
    }
    if (kind === 'taxonomy') {
      const taxonomy = item.meta._menu_item_object as keyof typeof TAXONOMIES;
      const term = this.site.terms.find((t) => t.taxonomy === taxonomy && t.id === objectId);
      if (!term || !TAXONOMIES[taxonomy]) return null;
      return { label: item.title || term.name, link: `/${TAXONOMIES[taxonomy]}/${term.slug}` };
    }
    const url = item.meta._menu_item_url;
    return url ? { label: item.title || url, link: url } : null;
  }
}

/** Items ordered so each comes after its parent (a parent missing from the list does not hold its children back). */
function parentsFirst<T>(items: T[], key: (t: T) => string, parentOf: (t: T) => string): T[] {
  const byKey = new Map(items.map((t) => [key(t), t]));
  const done = new Set<string>();
  const ordered: T[] = [];
  const visit = (item: T, depth: number) => {
    const k = key(item);
    if (done.has(k)) return;
    done.add(k);
    const parent = byKey.get(parentOf(item));
    if (parent && depth < 100) visit(parent, depth + 1);
    ordered.push(item);
  };
  for (const item of items) visit(item, 0);
  return ordered;
}
