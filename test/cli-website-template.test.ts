/** `cms init --template website` writes a whole site whose first start seeds sample content through the Local API. */
import { afterAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { createCMS, type CMS } from '../src/cms.ts';
import { seedIfEmpty } from '../src/cli/seed.ts';
import { localAPI } from '../src/local.ts';
import { quietLog, tempDir } from './harness.ts';

const MAIN = path.join(import.meta.dir, '../src/cli/main.ts');
const dir = tempDir('cms-website-');
let cms: CMS | undefined;
afterAll(async () => {
  await cms?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('init writes the config and the seed; the first start seeds once; reads convert the rich text', async () => {
  const made = Bun.spawnSync([process.execPath, MAIN, 'init', 'site', '--template', 'website'], {
    cwd: dir,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  expect(made.exitCode).toBe(0);
  expect(made.stdout.toString()).toContain('sample content');
  const site = path.join(dir, 'site');
  expect(fs.readdirSync(site).sort()).toEqual(['.gitignore', 'cms.config.ts', 'cms.seed.ts']);

  cms = await createCMS({ configPath: path.join(site, 'cms.config.ts'), log: quietLog });
  expect(await seedIfEmpty(cms)).toBe(path.join(site, 'cms.seed.ts'));
  // Not empty any more: a second start leaves it alone.
  expect(await seedIfEmpty(cms)).toBeNull();

  const api = localAPI(cms);
  const posts = await api.find({ collection: 'posts', overrideAccess: false, richText: 'html', sort: 'id' });
  expect(posts.totalDocs).toBe(2);
  expect(posts.docs[0].content).toContain('<strong>one file</strong>');
  expect(posts.docs[0].content).toMatch(/<h2>What is here<\/h2>/);
  const home = await api.find({ collection: 'pages', where: { slug: { equals: 'home' } }, overrideAccess: false });
  const page = home.docs[0] as Record<string, any>;
  expect(page.hero.media.sizes.og.width).toBe(1200);
  expect(page.layout.map((row: { blockType: string }) => row.blockType)).toEqual([
    'content',
    'mediaBlock',
    'archive',
    'cta',
  ]);
  expect(page.hero.richText.root.children[0].tag).toBe('h1');
  // Categories list their posts through a join field.
  const categories = await api.find({ collection: 'categories', overrideAccess: false, depth: 0, sort: 'id' });
  const joined = categories.docs.map((c) => (c as Record<string, any>).posts);
  expect(
    joined.every((j) => Array.isArray(j.docs) && typeof j.totalDocs === 'number' && typeof j.hasNextPage === 'boolean'),
  ).toBe(true);
  expect(joined.reduce((n, j) => n + j.totalDocs, 0)).toBeGreaterThan(0);
  const header = await api.findGlobal({ slug: 'header', overrideAccess: false });
  expect((header.navItems as unknown[]).length).toBe(3);
  const footer = await api.findGlobal({ slug: 'footer', richText: 'text' });
  expect(footer.copyright).toContain('Your company');
});
