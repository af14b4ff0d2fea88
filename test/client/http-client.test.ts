/**
 * The HTTP client (`cms/client`, client/index.js) as a static-site build uses it: loaded by the real `node`
 * through the package's `exports`, against a server on a random port, every Local API method name; and a
 * browser bundle of the package's client entry made by esbuild holds no drizzle-kit, no `bun:` module and
 * nothing of the server (README, "Static sites"). The types are checked in test/codegen/typed-consumer.test.ts.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';
import { ROOT } from '../support/consumer-project.ts';
import { writeClientPackage } from '../../src/build/client-package.ts';

const SCRIPT = `
import { createClient, CMSClientError } from 'cms/client';
const cms = createClient({ url: process.env.CMS_API, key: process.env.CMS_KEY });
const out = {};
const a = await cms.create({ collection: 'posts', data: { title: 'From Node', views: 1, seo: { title: 'S' } } });
const b = await cms.create({ collection: 'posts', data: { title: 'Second', views: 5, body: 'Some **bold** words' } });
out.html = (await cms.findByID({ collection: 'posts', id: b.id, richText: 'html' })).body;
out.markdown = (await cms.find({ collection: 'posts', where: { id: { equals: b.id } }, richText: 'markdown' })).docs[0].body;
out.created = [a.title, b.title];
const page = await cms.find({ collection: 'posts', where: { or: [{ views: { gt: 2 } }, { 'seo.title': { equals: 'S' } }] }, sort: 'title', select: { title: true }, limit: 10 });
out.found = page.docs.map((d) => d.title);
out.selected = Object.keys(page.docs[0]).sort();
out.byID = (await cms.findByID({ collection: 'posts', id: a.id, depth: 0 })).views;
out.count = (await cms.count({ collection: 'posts', where: { views: { gte: 1 } } })).totalDocs;
out.updated = (await cms.update({ collection: 'posts', id: a.id, data: { views: 9 } })).views;
out.bulk = (await cms.update({ collection: 'posts', where: { title: { equals: 'Second' } }, data: { views: 7 } })).docs.map((d) => d.views);
out.global = (await cms.updateGlobal({ slug: 'site', data: { name: 'Node site' } })).name;
out.readGlobal = (await cms.findGlobal({ slug: 'site' })).name;
out.deleted = (await cms.delete({ collection: 'posts', id: b.id })).title;
try {
  await cms.findByID({ collection: 'posts', id: b.id });
} catch (error) {
  out.missing = error instanceof CMSClientError ? error.status : String(error);
}
try {
  await createClient({ url: process.env.CMS_API }).create({ collection: 'posts', data: { title: 'x' } });
} catch (error) {
  out.anonymous = error.status;
}
console.log(JSON.stringify(out));
`;

let t: TestServer;
let dir: string;
let key: string;

beforeAll(async () => {
  t = await startTestServer({
    collections: [
      {
        slug: 'posts',
        access: { read: () => true },
        fields: [
          { name: 'title', type: 'text' },
          { name: 'views', type: 'number' },
          { name: 'body', type: 'richText' },
          { name: 'seo', type: 'group', fields: [{ name: 'title', type: 'text' }] },
        ],
      },
    ],
    globals: [{ slug: 'site', access: { read: () => true }, fields: [{ name: 'name', type: 'text' }] }],
  });
  const admin = await t.user('admin');
  key = (
    await t.request('POST', '/api-keys', {
      token: admin.token,
      body: { name: 'build', user: admin.user.id, scopes: ['*'] },
    })
  ).body.key;
  dir = tempDir('cms-http-client-');
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules/cms'), 'dir');
});
afterAll(async () => {
  await t?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs a script with the real `node` in `cwd` against the test server; its stdout parsed as JSON. */
async function runUnderNode(cwd: string, script: string): Promise<unknown> {
  const node = Bun.which('node');
  if (!node) throw new Error('node is not on this machine: the client must be tested under Node');
  fs.writeFileSync(path.join(cwd, 'build.mjs'), script);
  // Asynchronously: the server answers from this process.
  const child = Bun.spawn([node, 'build.mjs'], {
    cwd,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, CMS_API: t.api, CMS_KEY: key },
  });
  const [out, err] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  expect(err).toBe('');
  return JSON.parse(out);
}

test('node loads cms/client through the package exports and every method works', async () => {
  expect(await runUnderNode(dir, SCRIPT)).toEqual({
    created: ['From Node', 'Second'],
    html: '<div class="payload-richtext"><p>Some <strong>bold</strong> words</p></div>',
    markdown: 'Some **bold** words',
    found: ['From Node', 'Second'],
    selected: ['id', 'title'],
    byID: 1,
    count: 2,
    updated: 9,
    bulk: [7],
    global: 'Node site',
    readGlobal: 'Node site',
    deleted: 'Second',
    missing: 404,
    anonymous: 401,
  });
});

test('the client package from the build installs with npm and works under node', async () => {
  const npm = Bun.which('npm');
  if (!npm) throw new Error('npm is not on this machine: the client package must be installed with it');
  const out = tempDir('cms-client-package-');
  const site = tempDir('cms-client-site-');
  try {
    const { file, bytes } = await writeClientPackage(ROOT, out);
    expect(path.basename(file)).toMatch(/^cms-client-\d+\.\d+\.\d+\.tgz$/);
    expect(bytes).toBeLessThan(20_000);
    fs.writeFileSync(path.join(site, 'package.json'), '{ "name": "site", "private": true, "type": "module" }\n');
    const install = Bun.spawnSync([npm, 'install', '--offline', '--no-audit', '--no-fund', file], {
      cwd: site,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect({ code: install.exitCode, err: install.exitCode ? install.stderr.toString() : '' }).toEqual({
      code: 0,
      err: '',
    });
    expect(fs.readdirSync(path.join(site, 'node_modules/cms')).sort()).toEqual(['README.md', 'client', 'package.json']);
    const script = `
import { createClient } from 'cms/client';
const cms = createClient({ url: process.env.CMS_API, key: process.env.CMS_KEY });
const made = await cms.create({ collection: 'posts', data: { title: 'Packaged', body: 'Plain *words*' } });
const read = await cms.findByID({ collection: 'posts', id: made.id, richText: 'text' });
await cms.delete({ collection: 'posts', id: made.id });
console.log(JSON.stringify({ title: read.title, body: read.body }));
`;
    expect(await runUnderNode(site, script)).toEqual({ title: 'Packaged', body: 'Plain words' });
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(site, { recursive: true, force: true });
  }
});

test('a browser bundle of cms/client holds no drizzle-kit, no bun: module and no server code', async () => {
  fs.writeFileSync(
    path.join(dir, 'site.js'),
    "import { createClient } from 'cms/client';\nexport const cms = createClient({ url: 'https://cms.example.com' });\n",
  );
  for (const platform of ['browser', 'node', 'neutral'] as const) {
    const result = await build({
      entryPoints: [path.join(dir, 'site.js')],
      bundle: true,
      platform,
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: dir,
    });
    const inputs = Object.keys(result.metafile.inputs)
      .map((i) => path.relative(ROOT, path.resolve(dir, i)))
      .sort();
    expect({ platform, inputs }).toEqual({
      platform,
      inputs: ['client/index.js', path.relative(ROOT, path.join(dir, 'site.js'))].sort(),
    });
    const code = result.outputFiles[0].text;
    expect(code).not.toMatch(/drizzle|bun:|pglite|sharp/);
    expect(code.length).toBeLessThan(10_000);
  }
});
