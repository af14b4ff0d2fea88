/**
 * `cms import markdown` (docs/moving-in.md) on the engine of the run: a small blog folder (front matter of every
 * type, a relative image outside the content folder, a root path served from public/, an image inside a fenced code
 * block, a table, an MDX file with an import and a component, a draft, a path escaping the root) is imported into the
 * config `--emit-config` writes for it. Dry run first, then the real run, then a rerun that changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { importMarkdown } from '../../src/moving-in/markdown-import.ts';
import { markdownConfig } from '../../src/moving-in/markdown-config.ts';
import type { ImportReport } from '../../src/moving-in/report.ts';
import { localAPI } from '../../src/local.ts';
import { visitNodes, type RichTextValue } from '../../src/richtext/nodes.ts';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';

const SITE = path.join(import.meta.dir, '../fixtures/import/markdown/site');
const BLOG = path.join(SITE, 'content/blog');
const options = { dir: BLOG, root: SITE, publicDir: path.join(SITE, 'public') };

const nodesOf = (value: unknown, type: string) => {
  const found: any[] = [];
  visitNodes(value as RichTextValue, (node) => node.type === type && found.push(node));
  return found;
};

describe('cms import markdown', () => {
  const work = tempDir('cms-import-md-');
  let t: TestServer;
  let config: any;
  let dry: ImportReport;
  let first: ImportReport;
  let second: ImportReport;
  let docs: Record<string, any>;
  let withoutRoot: ImportReport;

  beforeAll(async () => {
    const file = path.join(work, 'cms.config.ts');
    fs.writeFileSync(file, await markdownConfig(BLOG));
    config = (await import(file)).default;
    t = await startTestServer(config);
    dry = (await importMarkdown(t.cms, { ...options, dryRun: true })).report;
    withoutRoot = (await importMarkdown(t.cms, { dir: BLOG, dryRun: true, publicDir: options.publicDir })).report;
    const count = await t.cms.store.get<{ n: number }>('SELECT COUNT(*) AS "n" FROM "blog"');
    expect(Number(count!.n)).toBe(0);
    first = (await importMarkdown(t.cms, { ...options, dryRun: false })).report;
    second = (await importMarkdown(t.cms, { ...options, dryRun: false })).report;
    const found = await localAPI(t.cms).find({ collection: 'blog', draft: true, depth: 0 });
    docs = Object.fromEntries(found.docs.map((d: any) => [d.slug, d]));
  });
  afterAll(async () => {
    await t?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test('the emitted config types each front-matter key from its values', () => {
    const [blog] = config.collections;
    expect(blog.slug).toBe('blog');
    const types = Object.fromEntries(blog.fields.map((f: any) => [f.name, f.type]));
    expect(types).toEqual({
      title: 'text',
      date: 'date',
      tags: 'select',
      cover: 'upload',
      rating: 'number',
      featured: 'checkbox',
      seo: 'json',
      slug: 'text',
      content: 'richText',
    });
    expect(blog.fields.find((f: any) => f.name === 'tags').options).toEqual(['harbour', 'intro']);
  });

  test('one document per file; the dry run reported the same and wrote nothing; a rerun changes nothing', () => {
    expect(first.collections).toEqual({ blog: { created: 3, updated: 0, unchanged: 0, failed: 0 } });
    expect({ ...dry, dryRun: false }).toEqual(first);
    expect(second.collections).toEqual({ blog: { created: 0, updated: 0, unchanged: 3, failed: 0 } });
    expect(first.errors).toEqual([]);
  });

  test('front matter typed, slugs from paths, drafts from draft: true', () => {
    expect(Object.keys(docs).sort()).toEqual(['2024/hello-world', '2024/regatta', 'draft-notes']);
    const hello = docs['2024/hello-world'];
    expect(hello).toMatchObject({ title: 'Hello World', rating: 4, featured: true, status: 'published' });
    expect(hello.date).toBe('2024-05-01T00:00:00.000Z');
    expect(hello.tags).toEqual(['intro', 'harbour']);
    expect(typeof hello.cover).toBe('number');
    expect(docs['draft-notes'].status).toBe('draft');
    expect(docs['draft-notes'].seo).toEqual({ description: 'Not yet' });
  });

  test('images (relative, and a root path from --public) are media once; code stays code; links between files are internal', () => {
    const hello = docs['2024/hello-world'];
    const uploads = nodesOf(hello.content, 'upload');
    expect(uploads).toHaveLength(2);
    expect(uploads[0].value).toBe(hello.cover);
    // The fenced block is code-formatted text: the image written in it is its text, not a third upload.
    const code = nodesOf(hello.content, 'text').filter((n) => n.text.includes('![not an image]'));
    expect(code).toHaveLength(1);
    expect(first.media).toEqual({ imported: 2, reused: 0, missing: 1 });
    // The draft's image climbs out of --root: refused, named as a path outside it.
    expect(first.missingMedia).toEqual([expect.stringMatching(/^(\.\.\/)+etc\/hostname$/)]);
    const toRegatta = nodesOf(hello.content, 'link').map((l) => l.fields);
    expect(toRegatta).toContainEqual(
      expect.objectContaining({ linkType: 'internal', doc: { relationTo: 'blog', value: docs['2024/regatta'].id } }),
    );
    const back = nodesOf(docs['2024/regatta'].content, 'link').map((l) => l.fields);
    expect(back).toContainEqual(expect.objectContaining({ doc: { relationTo: 'blog', value: hello.id } }));
  });

  test('losses are reported: the table, the MDX import and component', () => {
    const whats = (doc: string) => first.lossy.filter((l) => l.document === doc).map((l) => l.what);
    expect(whats('blog/2024/hello-world').join(' ')).toContain('table');
    expect(whats('blog/2024/regatta').join(' ')).toContain('MDX import');
    expect(whats('blog/2024/regatta').join(' ')).toContain('MDX component');
  });

  test('a changed file is updated, the rest unchanged, also from a copy of the folder elsewhere', async () => {
    const copy = path.join(work, 'copy');
    fs.cpSync(SITE, copy, { recursive: true });
    const regatta = path.join(copy, 'content/blog/2024/regatta.mdx');
    fs.writeFileSync(regatta, fs.readFileSync(regatta, 'utf8').replace('starts at noon', 'starts at one'));
    const { report } = await importMarkdown(t.cms, {
      dir: path.join(copy, 'content/blog'),
      root: copy,
      publicDir: path.join(copy, 'public'),
      dryRun: false,
    });
    expect(report.collections).toEqual({ blog: { created: 0, updated: 1, unchanged: 2, failed: 0 } });
    const [doc] = (await localAPI(t.cms).find({ collection: 'blog', where: { slug: { equals: '2024/regatta' } } }))
      .docs;
    expect(JSON.stringify(doc!.content)).toContain('starts at one');
  });

  test('without --root, an image outside the imported folder is refused and listed missing', () => {
    expect(withoutRoot.missingMedia).toContain('../../src/assets/harbour.png');
    expect(withoutRoot.missingMedia).toContain('../../public/img/field.png');
  });
});
