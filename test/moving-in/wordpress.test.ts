/**
 * `cms import wordpress` (docs/moving-in.md) on the engine of the run: a hand-written WordPress export with posts,
 * nested pages, a draft, a scheduled post, a private post, categories with parents, tags, attachments (one at a
 * WordPress.com-style URL, one copy of the same bytes, one missing), a menu and a custom post type is imported into
 * the config `--emit-config` writes for it. A dry run first writes nothing and reports what the real run then does;
 * a second run creates nothing; a changed source item is updated; a config lacking a collection is refused before
 * anything is written; a symbolic link in the uploads folder is not followed. The command itself runs once in a
 * `cms` process: report on stdout and in --report, redirects.json beside it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { importWordPress, readWordPressFile } from '../../src/moving-in/wordpress-import.ts';
import { wordpressConfig } from '../../src/moving-in/wordpress-config.ts';
import { finishRun } from '../../src/moving-in/finish-run.ts';
import type { ImportReport } from '../../src/moving-in/report.ts';
import { localAPI } from '../../src/local.ts';
import { visitNodes, type RichTextValue } from '../../src/richtext/nodes.ts';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';
import { runCLI } from '../support/run-cli.ts';

const FIXTURE = path.join(import.meta.dir, '../fixtures/import/wordpress');
const EXPORT = path.join(FIXTURE, 'export.xml');
const UPLOADS = path.join(FIXTURE, 'uploads');

const work = tempDir('cms-import-wp-');

/** The config `--emit-config` writes, loaded as the server would load it. */
async function emittedConfig() {
  const file = path.join(tempDir('cms-import-wp-config-'), 'cms.config.ts');
  fs.writeFileSync(file, wordpressConfig(await readWordPressFile(EXPORT)));
  return (await import(file)).default;
}

const nodesOf = (value: RichTextValue, type: string) => {
  const found: any[] = [];
  visitNodes(value, (node) => node.type === type && found.push(node));
  return found;
};
const tableCounts = async (t: TestServer) => {
  const counts: Record<string, number> = {};
  for (const table of ['posts', 'pages', 'portfolio', 'categories', 'tags', 'media', 'users', '_cms_import_map']) {
    const row = await t.cms.store.get<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "${table}"`);
    counts[table] = Number(row!.n);
  }
  return counts;
};

describe('cms import wordpress', () => {
  let t: TestServer;
  let dry: ImportReport;
  let first: ImportReport;
  let second: ImportReport;
  let redirects: { from: string; to: string }[];
  let before: Record<string, number>;

  beforeAll(async () => {
    t = await startTestServer(await emittedConfig());
    before = await tableCounts(t);
    const options = { file: EXPORT, uploads: UPLOADS, fetchMedia: false };
    dry = (await importWordPress(t.cms, { ...options, dryRun: true })).report;
    expect(await tableCounts(t)).toEqual(before);
    const run = await importWordPress(t.cms, { ...options, dryRun: false });
    first = run.report;
    await finishRun(run, path.join(work, 'out/report.json'));
    redirects = JSON.parse(fs.readFileSync(path.join(work, 'out/redirects.json'), 'utf8'));
    second = (await importWordPress(t.cms, { ...options, dryRun: false })).report;
  });
  afterAll(async () => {
    await t?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test('every post, page, custom post type, term and author is created once; media once per content', () => {
    expect(first.collections).toEqual({
      users: { created: 2, updated: 0, unchanged: 0, failed: 0 },
      categories: { created: 4, updated: 0, unchanged: 0, failed: 0 },
      tags: { created: 2, updated: 0, unchanged: 0, failed: 0 },
      pages: { created: 2, updated: 0, unchanged: 0, failed: 0 },
      posts: { created: 5, updated: 0, unchanged: 0, failed: 0 },
      portfolio: { created: 1, updated: 0, unchanged: 0, failed: 0 },
      'global menus': { created: 1, updated: 0, unchanged: 0, failed: 0 },
    });
    expect(first.errors).toEqual([]);
    // harbour.png and field.png (a WordPress.com file URL, read from the same folder); the copy's bytes are harbour.png's.
    expect(first.media).toEqual({ imported: 2, reused: 1, missing: 1 });
    expect(first.missingMedia).toEqual(['https://harbour.example/wp-content/uploads/2023/01/lost.jpg']);
    expect(first.unmapped).toEqual([{ collection: 'posts', field: 'mood', count: 2 }]);
  });

  test('the dry run wrote nothing and reported exactly what the real run did', () => {
    expect({ ...dry, dryRun: false }).toEqual(first);
    expect(dry.dryRun).toBe(true);
  });

  test('a second run creates nothing and reports the rest unchanged', () => {
    for (const [slug, counts] of Object.entries(second.collections))
      expect({ slug, ...counts }).toEqual({ slug, created: 0, updated: 0, unchanged: counts.unchanged, failed: 0 });
    expect(second.collections.posts!.unchanged).toBe(5);
    expect(second.media.imported).toBe(0);
  });

  test('statuses, dates, slugs, relationships and the scheduled publish', async () => {
    const api = localAPI(t.cms);
    const posts = await api.find({ collection: 'posts', draft: true, depth: 0, limit: 10, sort: 'createdAt' });
    const bySlug = Object.fromEntries(posts.docs.map((p: any) => [p.slug, p]));
    expect(Object.keys(bySlug).sort()).toEqual([
      'half-written',
      'hello-harbour',
      'members-only',
      'regatta-next-year',
      'storm-warning',
    ]);
    const hello = bySlug['hello-harbour'];
    expect(hello.status).toBe('published');
    expect(hello.createdAt).toBe('2024-05-01T10:00:00.000Z');
    expect(hello.publishedAt).toBe('2024-05-01T10:00:00.000Z');
    expect(bySlug['half-written'].status).toBe('draft');
    expect(bySlug['members-only'].status).toBe('draft');
    expect(bySlug['regatta-next-year'].status).toBe('draft');
    const jobs = await api.listScheduled({ collection: 'posts', id: bySlug['regatta-next-year'].id });
    expect(jobs.docs.map((j: any) => [j.action, j.at])).toEqual([['publish', '2099-07-01T07:00:00.000Z']]);

    const categories = await api.find({ collection: 'categories', depth: 0, limit: 10 });
    const cat = Object.fromEntries(categories.docs.map((c: any) => [c.slug, c]));
    expect(cat['harbour-news'].title).toBe('Harbour & Boats');
    expect(cat['harbour-news'].parent).toBe(cat['local-news'].id);
    expect(cat['local-news'].parent).toBe(cat.news.id);
    expect(hello.categories).toEqual([cat['harbour-news'].id]);
    expect(hello.tags).toHaveLength(2);
    const users = await api.find({ collection: 'users', depth: 0 });
    const anna = users.docs.find((u: any) => u.email === 'anna@harbour.example');
    expect(anna?.name).toBe('Anna Berg');
    expect(hello.author).toBe(anna!.id);
    const media = await api.find({ collection: 'media', depth: 0 });
    const harbour = media.docs.find((m: any) => m.alt === 'The harbour at dawn');
    expect(hello.featuredImage).toBe(harbour!.id);
    expect(Object.keys(harbour!.sizes ?? {}).length).toBeGreaterThanOrEqual(0);

    const pages = await api.find({ collection: 'pages', depth: 0 });
    const page = Object.fromEntries(pages.docs.map((p: any) => [p.slug, p]));
    expect(page.team.parent).toBe(page.about.id);
    const portfolio = await api.find({ collection: 'portfolio', depth: 0 });
    expect(portfolio.docs.map((d: any) => d.slug)).toEqual(['harbour-crane']);
  });

  test('rich text: internal links (also to a later post), images as uploads, losses counted', async () => {
    const api = localAPI(t.cms);
    const [hello] = (await api.find({ collection: 'posts', where: { slug: { equals: 'hello-harbour' } }, depth: 0 }))
      .docs;
    const [about] = (await api.find({ collection: 'pages', where: { slug: { equals: 'about' } }, depth: 0 })).docs;
    const [storm] = (await api.find({ collection: 'posts', where: { slug: { equals: 'storm-warning' } }, depth: 0 }))
      .docs;
    const links = nodesOf(hello!.content as RichTextValue, 'link').map((l) => l.fields);
    expect(links).toContainEqual(
      expect.objectContaining({ linkType: 'internal', doc: { relationTo: 'pages', value: about!.id } }),
    );
    expect(links).toContainEqual(
      expect.objectContaining({ linkType: 'internal', doc: { relationTo: 'posts', value: storm!.id } }),
    );
    const uploads = nodesOf(hello!.content as RichTextValue, 'upload');
    expect(uploads.map((u) => u.relationTo)).toEqual(['media', 'media']);
    // Both images are the same bytes: one media document.
    expect(uploads[0].value).toBe(uploads[1].value);
    expect(nodesOf(hello!.content as RichTextValue, 'list').length).toBeGreaterThanOrEqual(2);
    expect(first.lossy).toContainEqual(expect.objectContaining({ document: 'posts/hello-harbour' }));
    expect(first.lossy).toContainEqual(expect.objectContaining({ document: 'posts/storm-warning' }));
    expect(first.lossy).toContainEqual(expect.objectContaining({ document: 'pages/about' }));
    // Auto-paragraphs: the first two bare lines are one paragraph with a line break.
    const paragraphs = nodesOf(storm!.content as RichTextValue, 'paragraph');
    expect(nodesOf({ root: paragraphs[0] } as RichTextValue, 'linebreak')).toHaveLength(1);
  });

  test('the menu global, and redirects from every old URL', async () => {
    const menus = await localAPI(t.cms).findGlobal({ slug: 'menus' });
    expect((menus.mainMenu as any[]).map(({ label, link }) => ({ label, link }))).toEqual([
      { label: 'About', link: '/pages/about' },
      { label: 'Weather service', link: 'https://weather.example/harbour' },
      { label: 'News', link: '/categories/news' },
    ]);
    expect(redirects).toContainEqual({ from: '/2024/05/hello-harbour/', to: '/posts/hello-harbour' });
    expect(redirects).toContainEqual({ from: '/about/team/', to: '/pages/team' });
    expect(redirects).toContainEqual({ from: '/portfolio/harbour-crane/', to: '/portfolio/harbour-crane' });
    expect(redirects).toContainEqual({
      from: '/category/news/local-news/harbour-news/',
      to: '/categories/harbour-news',
    });
    expect(redirects).toContainEqual({ from: '/tag/boats/', to: '/tags/boats' });
    // Drafts had no public URL.
    expect(redirects.some((r) => r.to === '/posts/half-written')).toBe(false);
  });

  test('a source item changed since the last run is updated, the rest left alone', async () => {
    const changed = path.join(work, 'changed.xml');
    fs.writeFileSync(changed, fs.readFileSync(EXPORT, 'utf8').replace('Strong winds tonight.', 'Gale tonight.'));
    const report = (await importWordPress(t.cms, { file: changed, uploads: UPLOADS, fetchMedia: false, dryRun: false }))
      .report;
    expect(report.collections.posts).toEqual({ created: 0, updated: 1, unchanged: 4, failed: 0 });
    const [storm] = (
      await localAPI(t.cms).find({ collection: 'posts', where: { slug: { equals: 'storm-warning' } }, depth: 0 })
    ).docs;
    expect(JSON.stringify(storm!.content)).toContain('Gale tonight.');
  });
});

describe('cms import wordpress commits each document with its mapping row', () => {
  test('the row is there when the document commits, so a run stopped midway leaves no document unmapped', async () => {
    const t = await startTestServer(await emittedConfig());
    const rowsAtCommit = new Map<number, number>();
    t.cms.events.on((event, scope) => {
      if (event.collection !== 'posts' || event.id === undefined || rowsAtCommit.has(event.id)) return;
      const id = event.id;
      rowsAtCommit.set(id, -1);
      scope.beforeCommit(async () => {
        const row = await scope.tx.get<{ n: number }>(
          'SELECT COUNT(*) AS "n" FROM "_cms_import_map" WHERE "collection" = ? AND "docId" = ?',
          ['posts', String(id)],
        );
        rowsAtCommit.set(id, Number(row!.n));
      });
    });
    try {
      const { report } = await importWordPress(t.cms, {
        file: EXPORT,
        uploads: UPLOADS,
        fetchMedia: false,
        dryRun: false,
      });
      expect(report.collections.posts.created).toBe(5);
      expect([...rowsAtCommit.values()]).toEqual([1, 1, 1, 1, 1]);
    } finally {
      await t.stop();
    }
  });
});

describe('cms import wordpress after a step that fails past the commit', () => {
  test('the next run updates that document instead of creating it twice', async () => {
    const config = await emittedConfig();
    const posts = config.collections.find((c: any) => c.slug === 'posts');
    let failures = 1;
    posts.hooks = {
      afterChange: [
        ({ doc }: any) => {
          if (doc.slug === 'storm-warning' && failures-- > 0) throw new Error('mail server down');
          return doc;
        },
      ],
    };
    const t = await startTestServer(config);
    try {
      const options = { file: EXPORT, uploads: UPLOADS, fetchMedia: false, dryRun: false };
      const first = (await importWordPress(t.cms, options)).report;
      expect(first.errors).toEqual([{ sourceId: 'post:2', message: expect.stringContaining('mail server down') }]);
      const second = (await importWordPress(t.cms, options)).report;
      expect(second.collections.posts).toEqual({ created: 0, updated: 1, unchanged: 4, failed: 0 });
      const storms = await localAPI(t.cms).find({
        collection: 'posts',
        where: { slug: { equals: 'storm-warning' } },
        depth: 0,
      });
      expect(storms.docs.length).toBe(1);
    } finally {
      await t.stop();
    }
  });
});

describe('cms import wordpress refuses before writing', () => {
  let t: TestServer;
  const dir = tempDir('cms-import-wp-refuse-');
  beforeAll(async () => {
    const config = await emittedConfig();
    t = await startTestServer({
      ...config,
      collections: config.collections.filter((c: any) => c.slug !== 'portfolio'),
    });
  });
  afterAll(async () => {
    await t?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a config lacking a needed collection or field: nothing is written, the message names it', async () => {
    const error = await importWordPress(t.cms, {
      file: EXPORT,
      uploads: UPLOADS,
      fetchMedia: false,
      dryRun: false,
    }).catch((e) => e);
    expect(String(error.message)).toContain('collection "portfolio"');
    const row = await t.cms.store.get<{ n: number }>('SELECT COUNT(*) AS "n" FROM "posts"');
    expect(Number(row!.n)).toBe(0);
  });

  test('a symbolic link in the uploads folder is not followed; a failing document is reported, the rest go on', async () => {
    const uploads = path.join(dir, 'uploads');
    fs.cpSync(UPLOADS, uploads, { recursive: true });
    fs.rmSync(path.join(uploads, '2024/06/field.png'));
    fs.symlinkSync(path.join(UPLOADS, '2024/06/field.png'), path.join(uploads, '2024/06/field.png'));
    const config = await emittedConfig();
    const posts = config.collections.find((c: any) => c.slug === 'posts');
    posts.hooks = {
      beforeChange: [
        ({ data }: any) => {
          if (data.slug === 'members-only') throw new Error('refused by a hook');
          return data;
        },
      ],
    };
    const other = await startTestServer(config);
    try {
      const { report } = await importWordPress(other.cms, { file: EXPORT, uploads, fetchMedia: false, dryRun: false });
      expect(report.missingMedia).toContain('https://harbourexample.files.wordpress.com/2024/06/field.png');
      expect(report.collections.posts).toEqual({ created: 4, updated: 0, unchanged: 0, failed: 1 });
      expect(report.errors).toEqual([{ sourceId: 'post:5', message: expect.stringContaining('refused by a hook') }]);
    } finally {
      await other.stop();
    }
  });
});

describe('the cms import wordpress command', () => {
  const project = tempDir('cms-import-wp-cli-');
  afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

  test('--emit-config writes a config the import then runs with; the report on stdout, in --report, redirects beside it', () => {
    const emit = runCLI(project, 'import', 'wordpress', EXPORT, '--emit-config', 'cms.config.ts');
    expect(emit.err).toBe('');
    expect(emit.code).toBe(0);
    expect(fs.existsSync(path.join(project, 'data'))).toBe(false);

    const run = runCLI(project, 'import', 'wordpress', EXPORT, '--uploads', UPLOADS, '--report', 'out/report.json');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out);
    expect(report.source).toBe('wordpress');
    expect(report.collections.posts.created).toBe(5);
    expect(JSON.parse(fs.readFileSync(path.join(project, 'out/report.json'), 'utf8'))).toEqual(report);
    const redirects = JSON.parse(fs.readFileSync(path.join(project, 'out/redirects.json'), 'utf8'));
    expect(redirects).toContainEqual({ from: '/about/', to: '/pages/about' });

    const again = runCLI(project, 'import', 'wordpress', EXPORT, '--uploads', UPLOADS, '--dry-run');
    expect(again.code).toBe(0);
    const dry = JSON.parse(again.out);
    expect(dry.dryRun).toBe(true);
    expect(dry.collections.posts).toEqual({ created: 0, updated: 0, unchanged: 5, failed: 0 });
  });

  test('an unknown source, or a flag of the sources given to `cms import DIR`, is refused', () => {
    const unknown = runCLI(project, 'import', 'joomla', EXPORT);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('joomla');
    const flag = runCLI(project, 'import', project, '--dry-run');
    expect(flag.code).toBe(1);
    expect(flag.err).toContain('--dry-run');
  });
});

describe('cms import wordpress --fetch-media', () => {
  const dir = tempDir('cms-import-wp-fetch-');
  let t: TestServer;
  let files: ReturnType<typeof Bun.serve>;
  const requested: string[] = [];
  let file: string;

  beforeAll(async () => {
    // A host serving the uploads folder at WordPress's path, standing in for the old site.
    files = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(req) {
        const { pathname } = new URL(req.url);
        requested.push(pathname);
        const relative = pathname.replace(/^\/wp-content\/uploads\//, '');
        const target = path.join(UPLOADS, relative);
        return fs.existsSync(target) && !relative.includes('..')
          ? new Response(Bun.file(target))
          : new Response('not found', { status: 404 });
      },
    });
    const origin = `http://127.0.0.1:${files.port}`;
    file = path.join(dir, 'export.xml');
    fs.writeFileSync(
      file,
      fs
        .readFileSync(EXPORT, 'utf8')
        .replaceAll('https://harbour.example', origin)
        .replaceAll('https://harbourexample.files.wordpress.com', `${origin}/wp-content/uploads`),
    );
    t = await startTestServer(await emittedConfig());
  });
  afterAll(async () => {
    await t?.stop();
    files?.stop(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('without --fetch-media nothing is fetched: files not in --uploads are missing', async () => {
    const { report } = await importWordPress(t.cms, { file, fetchMedia: false, dryRun: true });
    expect(requested).toEqual([]);
    expect(report.media).toEqual({ imported: 0, reused: 0, missing: 4 });
  });

  test('with --fetch-media files come from their URLs; what the host does not have is missing', async () => {
    const { report } = await importWordPress(t.cms, { file, fetchMedia: true, dryRun: false });
    expect(requested.length).toBeGreaterThan(0);
    expect(report.media).toEqual({ imported: 2, reused: 1, missing: 1 });
    expect(report.missingMedia).toEqual([`http://127.0.0.1:${files.port}/wp-content/uploads/2023/01/lost.jpg`]);
  });
});
