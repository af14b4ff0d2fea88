/** Tabs, rows and collapsibles (stored at their own level; a named tab is a group), radio, code, and config mistakes stopping start-up. */
import { expect, test } from 'bun:test';
import { runScenarios, startTestServer, type TestServer } from '../harness.ts';
import { websiteConfig } from '../fixtures/website-template.ts';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import { entityTable } from '../../src/db/table-model.ts';
import type { Field, UserConfig } from '../../src/config/types.ts';

// The one page every row starts with, for the query rows to find by a row's field and a named tab's.
async function seed(t: TestServer) {
  const res = await t.request('POST', '/pages', {
    body: { title: 'Seeded', hero: { type: 'none' }, metaTitle: 'Seeded meta', priority: 7, layout: [] },
  });
  if (res.status !== 201) throw new Error(res.text);
}

runScenarios(
  'layout, radio and code fields',
  websiteConfig,
  [
    {
      name: 'a named tab is a group; an unnamed tab, a row and a collapsible keep their fields at their own level',
      method: 'POST',
      url: '/pages',
      status: 201,
      events: { create: 1 },
      body: {
        title: 'T',
        hero: { type: 'highImpact', headline: 'Big' },
        metaTitle: 'Meta',
        priority: 2,
        snippet: '<b>x</b>',
        layout: [],
      },
      contains: [
        '"hero":{',
        '"type":"highImpact"',
        '"headline":"Big"',
        '"metaTitle":"Meta"',
        '"priority":2',
        '"snippet":"<b>x</b>"',
      ],
    },
    {
      name: 'a radio default applies inside a named tab',
      method: 'POST',
      url: '/pages',
      body: { title: 'D', hero: {} },
      status: 201,
      events: { create: 1 },
      contains: ['"title":"D"', '"hero":{"type":"lowImpact"'],
    },
    {
      name: 'a named tab left out of a create still gets its radio default',
      method: 'POST',
      url: '/pages',
      body: { title: 'E' },
      status: 201,
      events: { create: 1 },
      contains: ['"title":"E"', '"hero":{"type":"lowImpact"'],
    },
    {
      name: 'a radio value outside the options is a 400 naming its path',
      method: 'POST',
      url: '/pages',
      body: { title: 'R', hero: { type: 'giant' } },
      status: 400,
      contains: ['"field":"hero.type"'],
    },
    {
      name: 'code takes text only',
      method: 'POST',
      url: '/pages',
      body: { title: 'C', snippet: 5 },
      status: 400,
      contains: ['"field":"snippet"'],
    },
    {
      name: 'fields of a row are queried and sorted like top-level fields',
      method: 'GET',
      url: '/pages?depth=0&where[priority][equals]=7&sort=-priority',
      status: 200,
      contains: ['"totalDocs":1', '"metaTitle":"Seeded meta"'],
    },
    {
      name: 'fields of a named tab by dot path',
      method: 'GET',
      url: '/pages?depth=0&where[hero.type][equals]=none',
      status: 200,
      contains: ['"totalDocs":1', '"title":"Seeded"'],
    },
    {
      name: 'the admin config carries tabs, rows, collapsibles and blocks as plain data',
      method: 'GET',
      url: '/_admin/config',
      as: 'admin',
      status: 200,
      contains: [
        '"type":"tabs"',
        '"name":"hero"',
        '"type":"row"',
        '"type":"collapsible"',
        '"blocks":[',
        '"slug":"cta"',
        '"interfaceName":"CallToActionBlock"',
        '"language":"html"',
      ],
    },
  ],
  { seed },
);

test('fields of unnamed tabs and rows at the top get real columns; blocks and named tabs are JSON', () => {
  const config = sanitizeConfig(websiteConfig(), { configPath: null, rootDir: '/tmp' });
  const table = entityTable(config.collectionsBySlug.get('pages')!);
  const types = Object.fromEntries(table.columns.map((c) => [c.name, c.type]));
  expect(types).toMatchObject({
    metaTitle: 'text',
    priority: 'real',
    snippet: 'text',
    layout: 'text',
    hero: 'text',
    location: 'text',
  });
});

test('a server starts with the website-shaped config', async () => {
  const t = await startTestServer(websiteConfig());
  try {
    expect((await t.request('GET', '/pages')).status).toBe(200);
  } finally {
    await t.stop();
  }
});

const withPages = (fields: Field[]): UserConfig => ({ collections: [{ slug: 'pages', fields }] });
const refuse = (config: UserConfig) => () => sanitizeConfig(config, { configPath: 'cms.config.ts', rootDir: '/tmp' });

test.each([
  [
    'a block without a slug',
    withPages([{ name: 'layout', type: 'blocks', blocks: [{ fields: [{ name: 'a', type: 'text' }] } as never] }]),
    'collections[0].fields[0].blocks[0].slug',
  ],
  [
    'duplicate block slugs',
    withPages([
      {
        name: 'layout',
        type: 'blocks',
        blocks: [
          { slug: 'a', fields: [{ name: 'x', type: 'text' }] },
          { slug: 'a', fields: [{ name: 'y', type: 'text' }] },
        ],
      },
    ]),
    'collections[0].fields[0].blocks[1].slug: duplicate block slug "a"',
  ],
  [
    'duplicate names inside a row',
    withPages([
      { name: 'title', type: 'text' },
      { type: 'row', fields: [{ name: 'title', type: 'text' }] },
    ]),
    'collections[0].fields[1].fields[0].name: duplicate field name "title"',
  ],
  [
    'duplicate names inside a block',
    withPages([
      {
        name: 'layout',
        type: 'blocks',
        blocks: [
          {
            slug: 'a',
            fields: [
              { name: 'x', type: 'text' },
              { name: 'x', type: 'number' },
            ],
          },
        ],
      },
    ]),
    'collections[0].fields[0].blocks[0].fields[1].name',
  ],
  [
    'a block field named blockType',
    withPages([
      { name: 'layout', type: 'blocks', blocks: [{ slug: 'a', fields: [{ name: 'blockType', type: 'text' }] }] },
    ]),
    'reserved',
  ],
  [
    'an unnamed tab clashing with a sibling',
    withPages([
      { name: 'x', type: 'text' },
      { type: 'tabs', tabs: [{ label: 'A', fields: [{ name: 'x', type: 'text' }] }] },
    ]),
    'collections[0].fields[1].tabs[0].fields[0].name',
  ],
  ['a tabs field without tabs', withPages([{ type: 'tabs' }]), 'collections[0].fields[0].tabs'],
  [
    'an unknown collection inside a block',
    withPages([
      {
        name: 'layout',
        type: 'blocks',
        blocks: [{ slug: 'a', fields: [{ name: 'page', type: 'relationship', relationTo: 'nope' }] }],
      },
    ]),
    'collections[0].fields[0].blocks[0].fields[0].relationTo: unknown collection "nope"',
  ],
  [
    'an unknown collection in a row inside a tab',
    withPages([
      { name: 'x', type: 'text' },
      {
        type: 'tabs',
        tabs: [
          { label: 'A', fields: [{ type: 'row', fields: [{ name: 'img', type: 'upload', relationTo: 'nope' }] }] },
        ],
      },
    ]),
    'collections[0].fields[1].tabs[0].fields[0].fields[0].relationTo',
  ],
])('config mistake: %s stops start-up naming the path', (_name, config, fragment) => {
  expect(refuse(config)).toThrow(fragment);
});
