/**
 * `cms export` / `cms import` (docs/export.md): a project with localized fields,
 * drafts, relationships, an upload field and image sizes is exported, imported into an empty instance
 * and exported again: the two folders are byte-identical. Drafts stay out unless `--drafts`; media files
 * travel with their documents; ids are kept and new ids continue after them; a folder with a field the
 * config lacks is refused before anything is written; with `serverURL`, exported media URLs are absolute.
 * The commands themselves run once each in a `cms` process (progress line, exit status).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { exportContent } from '../../src/content-files/export-content.ts';
import { importContent } from '../../src/content-files/import-content.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { localAPI } from '../../src/local.ts';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';
import { fingerprint, png } from '../support/media-fixtures.ts';
import { notesProject, runCLI } from '../support/run-cli.ts';

const config: UserConfig = {
  serverURL: 'https://cms.example.com',
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  upload: { imageSizes: [{ name: 'thumb', width: 16 }] },
  collections: [
    { slug: 'categories', fields: [{ name: 'name', type: 'text', localized: true }] },
    {
      slug: 'posts',
      drafts: true,
      fields: [
        { name: 'title', type: 'text', localized: true },
        { name: 'category', type: 'relationship', relationTo: 'categories' },
        { name: 'image', type: 'upload', relationTo: 'media' },
        { name: 'links', type: 'array', fields: [{ name: 'label', type: 'text' }] },
      ],
    },
  ],
  globals: [{ slug: 'settings', fields: [{ name: 'siteName', type: 'text', localized: true }] }],
};

const readJSON = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

describe('export → import into an empty instance → export', () => {
  let source: TestServer;
  let target: TestServer;
  const work = tempDir('cms-export-');
  const first = path.join(work, 'first');
  const second = path.join(work, 'second');
  const withDrafts = path.join(work, 'with-drafts');
  const ids: Record<string, number> = {};
  let image: Record<string, any>;
  let imageBytes: Uint8Array;

  beforeAll(async () => {
    source = await startTestServer(config);
    const api = localAPI(source.cms);
    const news = await api.create({ collection: 'categories', data: { name: 'News' }, locale: 'en' });
    await api.update({ collection: 'categories', id: news.id as number, data: { name: 'Nachrichten' }, locale: 'de' });
    imageBytes = new Uint8Array(await png(40, 20));
    image = await api.upload({ file: { data: imageBytes, name: 'cover.png' }, data: { alt: 'Cover' } });
    const published = await api.create({
      collection: 'posts',
      data: { title: 'Hello', category: news.id, image: image.id, links: [{ label: 'one' }], status: 'published' },
      locale: 'en',
    });
    await api.update({ collection: 'posts', id: published.id as number, data: { title: 'Hallo' }, locale: 'de' });
    const draftOnly = await api.create({ collection: 'posts', data: { title: 'Not yet' }, draft: true });
    const pending = await api.create({ collection: 'posts', data: { title: 'Live text', status: 'published' } });
    await api.update({ collection: 'posts', id: pending.id as number, data: { title: 'Draft text' }, draft: true });
    await api.updateGlobal({ slug: 'settings', data: { siteName: 'My site' }, locale: 'en' });
    Object.assign(ids, { news: news.id, published: published.id, draftOnly: draftOnly.id, pending: pending.id });

    await exportContent(source.cms, { outDir: first });
    await exportContent(source.cms, { outDir: withDrafts, drafts: true });
    target = await startTestServer(config);
    await importContent(target.cms, first);
    await exportContent(target.cms, { outDir: second });
  });
  afterAll(async () => {
    await source?.stop();
    await target?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test('the second export is byte-identical to the first', () => {
    expect(fingerprint(second)).toEqual(fingerprint(first));
  });

  test('documents are files by id; localized fields keep every locale; relationships are ids', () => {
    const post = readJSON(path.join(first, 'posts', `${ids.published}.json`));
    expect(post.title).toEqual({ en: 'Hello', de: 'Hallo' });
    expect(post.category).toBe(ids.news);
    expect(post.image).toBe(image.id);
    expect(post.links[0].label).toBe('one');
    expect(readJSON(path.join(first, 'categories', `${ids.news}.json`)).name).toEqual({
      en: 'News',
      de: 'Nachrichten',
    });
    expect(readJSON(path.join(first, 'globals', 'settings.json')).siteName).toEqual({ en: 'My site' });
    // Accounts are not content: no users folder.
    expect(fs.existsSync(path.join(first, 'users'))).toBe(false);
  });

  test('drafts are left out unless --drafts; a pending draft is exported only with --drafts', () => {
    expect(fs.readdirSync(path.join(first, 'posts')).sort()).toEqual(
      [`${ids.published}.json`, `${ids.pending}.json`].sort(),
    );
    expect(readJSON(path.join(first, 'posts', `${ids.pending}.json`)).title).toEqual({ en: 'Live text' });
    expect(fs.existsSync(path.join(withDrafts, 'posts', `${ids.draftOnly}.json`))).toBe(true);
    expect(readJSON(path.join(withDrafts, 'posts', `${ids.pending}.json`)).title).toEqual({ en: 'Draft text' });
    expect(readJSON(path.join(withDrafts, 'cms-export.json'))).toEqual({ drafts: true, format: 1, locale: 'all' });
  });

  test('media files travel with their documents, and the imported instance serves them', async () => {
    const names = [image.filename, image.sizes.thumb.filename];
    expect(fs.readdirSync(path.join(first, 'media')).sort()).toEqual([...names, `${image.id}.json`].sort());
    expect(Bun.hash(fs.readFileSync(path.join(first, 'media', image.filename)))).toBe(Bun.hash(imageBytes));
    const res = await fetch(`${target.api}/media/file/${image.filename}`);
    expect(res.status).toBe(200);
    expect(Bun.hash(await res.arrayBuffer())).toBe(Bun.hash(imageBytes));
  });

  test('with serverURL, media url and every size url are absolute, in exported files and populated reads alike', async () => {
    const base = 'https://cms.example.com/api/cms/media/file/';
    const exported = readJSON(path.join(first, 'media', `${image.id}.json`));
    expect(exported.url).toBe(`${base}${image.filename}`);
    expect(exported.sizes.thumb.url).toBe(`${base}${image.sizes.thumb.filename}`);
    const post = await localAPI(target.cms).findByID({ collection: 'posts', id: ids.published, depth: 1 });
    expect((post.image as any).url).toBe(`${base}${image.filename}`);
    expect((post.image as any).sizes.thumb.url).toBe(`${base}${image.sizes.thumb.filename}`);
  });

  test('imported documents keep their ids, and new ones continue after the highest', async () => {
    const api = localAPI(target.cms);
    const post = await api.findByID({ collection: 'posts', id: ids.published, locale: 'de', depth: 0 });
    expect(post.title).toBe('Hallo');
    const next = await api.create({ collection: 'posts', data: { title: 'After import' } });
    expect(next.id as number).toBeGreaterThan(Math.max(ids.published, ids.pending));
    const category = await api.create({ collection: 'categories', data: { name: 'Second' } });
    expect(category.id as number).toBeGreaterThan(ids.news);
  });

  test('re-exporting into the same folder removes the files of deleted documents and keeps the rest', async () => {
    await localAPI(target.cms).delete({ collection: 'posts', id: ids.pending });
    const before = fingerprint(second);
    await exportContent(target.cms, { outDir: second });
    const after = fingerprint(second);
    expect(after[`posts/${ids.pending}.json`]).toBeUndefined();
    expect(after[`posts/${ids.published}.json`]).toBe(before[`posts/${ids.published}.json`]);
    expect(after[`media/${image.filename}`]).toBe(before[`media/${image.filename}`]);
  });
});

describe('import refuses a folder that does not match the config, before writing anything', () => {
  let source: TestServer;
  let target: TestServer;
  const work = tempDir('cms-import-refused-');
  const folder = path.join(work, 'export');

  beforeAll(async () => {
    source = await startTestServer(config);
    const api = localAPI(source.cms);
    await api.create({ collection: 'categories', data: { name: 'News' } });
    await api.create({ collection: 'posts', data: { title: 'Hello', status: 'published' } });
    await exportContent(source.cms, { outDir: folder });
    target = await startTestServer(config);
  });
  afterAll(async () => {
    await source?.stop();
    await target?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const edit = (file: string, change: (doc: any) => void) => {
    const original = fs.readFileSync(file, 'utf8');
    const doc = JSON.parse(original);
    change(doc);
    fs.writeFileSync(file, JSON.stringify(doc));
    return () => fs.writeFileSync(file, original);
  };
  const nothingWritten = async () => {
    expect((await localAPI(target.cms).count({ collection: 'categories' })).totalDocs).toBe(0);
  };

  test('a field the config lacks is named, with its file', async () => {
    const undo = edit(path.join(folder, 'posts', '1.json'), (doc) => {
      doc.subtitle = 'x';
    });
    await expect(importContent(target.cms, folder)).rejects.toThrow(
      'posts/1.json has field "subtitle", which the config\'s collection "posts" does not have',
    );
    undo();
    await nothingWritten();
  });

  test('a nested field the config lacks is named by its path', async () => {
    const undo = edit(path.join(folder, 'posts', '1.json'), (doc) => {
      doc.links = [{ id: 'a', label: 'x', colour: 'red' }];
    });
    await expect(importContent(target.cms, folder)).rejects.toThrow('has field "links.colour"');
    undo();
    await nothingWritten();
  });

  test('a collection the config lacks is named', async () => {
    fs.mkdirSync(path.join(folder, 'pages'));
    await expect(importContent(target.cms, folder)).rejects.toThrow(
      'folder "pages" is not a collection of this config',
    );
    fs.rmdirSync(path.join(folder, 'pages'));
    await nothingWritten();
  });

  test('a single-locale export is for builds, not for import', async () => {
    const single = path.join(work, 'single');
    await exportContent(source.cms, { outDir: single, locale: 'de' });
    expect(readJSON(path.join(single, 'posts', '1.json')).title).toBe('Hello'); // falls back to en
    await expect(importContent(target.cms, single)).rejects.toThrow('exported with --locale de');
  });

  test('the matching folder imports, and importing it again changes nothing', async () => {
    await importContent(target.cms, folder);
    await importContent(target.cms, folder);
    const again = path.join(work, 'again');
    await exportContent(target.cms, { outDir: again });
    expect(fingerprint(again)).toEqual(fingerprint(folder));
  });
});

describe('import reads regular files inside the folder only, and refuses before writing anything', () => {
  let source: TestServer;
  let target: TestServer;
  const work = tempDir('cms-import-links-');
  const folder = path.join(work, 'export');
  const secret = path.join(work, 'cms.config.ts');
  let image: Record<string, any>;

  beforeAll(async () => {
    source = await startTestServer(config);
    const api = localAPI(source.cms);
    await api.create({ collection: 'categories', data: { name: 'News' } });
    image = await api.upload({
      file: { data: new Uint8Array(await png(20, 10)), name: 'cover.png' },
      data: { alt: 'Cover' },
    });
    await exportContent(source.cms, { outDir: folder });
    fs.writeFileSync(secret, "export default { secret: 'do-not-serve' };\n");
    target = await startTestServer(config);
  });
  afterAll(async () => {
    await source?.stop();
    await target?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const nothingWritten = async () => {
    const api = localAPI(target.cms);
    expect((await api.count({ collection: 'categories' })).totalDocs).toBe(0);
    expect((await api.count({ collection: 'media' })).totalDocs).toBe(0);
    expect((await fetch(`${target.api}/media/file/${image.filename}`)).status).toBe(404);
  };
  /** Swaps `relative` for a symbolic link to `to` while `run` runs. */
  const linked = async (relative: string, to: string, run: () => Promise<void>) => {
    const file = path.join(folder, relative);
    const kept = `${file}.kept`;
    fs.renameSync(file, kept);
    fs.symlinkSync(to, file);
    try {
      await run();
    } finally {
      fs.rmSync(file);
      fs.renameSync(kept, file);
    }
  };

  test('a media file that is a symbolic link (to the config) is refused', async () => {
    await linked(`media/${image.filename}`, secret, async () => {
      await expect(importContent(target.cms, folder)).rejects.toThrow(
        `media/${image.filename}, named by a media document, is a symbolic link`,
      );
    });
    await nothingWritten();
  });

  test('a document file that is a symbolic link is refused', async () => {
    await linked('categories/1.json', path.join(folder, 'categories', '1.json.kept'), async () => {
      await expect(importContent(target.cms, folder)).rejects.toThrow('categories/1.json is a symbolic link');
    });
    await nothingWritten();
  });

  test('a folder that is a symbolic link is refused', async () => {
    await linked('categories', path.join(folder, 'categories.kept'), async () => {
      await expect(importContent(target.cms, folder)).rejects.toThrow('categories is not part of an export');
    });
    await nothingWritten();
  });

  test('a media document naming a file outside the folder is refused', async () => {
    const file = path.join(folder, 'media', `${image.id}.json`);
    const original = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(original), filename: '../../cms.config.ts' }));
    try {
      await expect(importContent(target.cms, folder)).rejects.toThrow('names a path outside the folder');
    } finally {
      fs.writeFileSync(file, original);
    }
    await nothingWritten();
  });

  test('the untouched folder imports', async () => {
    await importContent(target.cms, folder);
    expect((await fetch(`${target.api}/media/file/${image.filename}`)).status).toBe(200);
  });
});

describe('the cms export and cms import commands', () => {
  const work = tempDir('cms-export-cli-');
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  const cms = runCLI;
  const project = (name: string) => notesProject(work, name);

  test('export writes the folder with a progress line; import loads it into a new project', async () => {
    const a = project('a');
    const api = localAPI(
      await (await import('../../src/create-cms.ts')).createCMS({
        configPath: path.join(a, 'cms.config.ts'),
        log: { info() {}, warn() {}, error() {} },
      }),
    );
    await api.create({ collection: 'notes', data: { text: 'one' } });
    await api.close();

    const exported = cms(a, 'export');
    expect(exported.err).toBe('');
    expect(exported.code).toBe(0);
    expect(exported.out).toContain('export: notes 0/1');
    expect(exported.out).toContain(
      `exported 1 documents, 0 globals and 0 media files (0.0 MB) to ${path.join(a, 'export')}`,
    );
    expect(readJSON(path.join(a, 'export', 'notes', '1.json')).text).toBe('one');

    const b = project('b');
    const imported = cms(b, 'import', path.join(a, 'export'));
    expect(imported.code).toBe(0);
    expect(imported.out).toContain('imported 1 documents');
    expect(cms(b, 'export').code).toBe(0);
    expect(fingerprint(path.join(b, 'export'))).toEqual(fingerprint(path.join(a, 'export')));

    const c = project('c');
    fs.writeFileSync(
      path.join(c, 'cms.config.ts'),
      `export default { collections: [{ slug: 'notes', fields: [{ name: 'body', type: 'text' }] }] };\n`,
    );
    const refused = cms(c, 'import', path.join(a, 'export'));
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('notes/1.json has field "text"');
  });

  test('export in a project that was never served names the command to run, and writes nothing', () => {
    const fresh = project('never-served');
    const first = cms(fresh, 'export');
    expect(first.code).toBe(1);
    expect(first.err).toContain('cms migrate');
    expect(first.err).not.toContain('no such table');
    expect(fs.existsSync(path.join(fresh, 'export'))).toBe(false);
    // Once migrated as the message says, the same command exports the (empty) project.
    expect(cms(fresh, 'migrate:create', 'initial').code).toBe(0);
    expect(cms(fresh, 'migrate').code).toBe(0);
    const second = cms(fresh, 'export');
    expect(second.err).toBe('');
    expect(second.code).toBe(0);
    expect(second.out).toContain('exported 0 documents');
  });
});
