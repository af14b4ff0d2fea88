/** Rich text fields through the API: validation node by node, Markdown in, locales, drafts, blocks, depth, conversions, cache. */
import { expect } from 'bun:test';
import type { UserConfig } from '../../src/config/types.ts';
import { runScenarios, type TestServer } from '../harness.ts';
import { form, png } from '../support/media-fixtures.ts';
import {
  block,
  heading,
  hr,
  inlineBlock,
  internalLink,
  item,
  link,
  list,
  paragraph,
  quote,
  relationship,
  root,
  text,
  upload,
} from '../fixtures/richtext/nodes.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };

const config = (): UserConfig => ({
  localization: { locales: ['en', 'de'], defaultLocale: 'en', fallback: true },
  collections: [
    // Only signed-in users may read categories: population must answer null to others.
    {
      slug: 'categories',
      access: { ...open, read: ({ user }) => Boolean(user) },
      fields: [{ name: 'title', type: 'text' }],
    },
    {
      slug: 'posts',
      access: open,
      drafts: true,
      fields: [
        { name: 'title', type: 'text' },
        { name: 'slug', type: 'text' },
        {
          name: 'content',
          type: 'richText',
          localized: true,
          blocks: [
            {
              slug: 'banner',
              fields: [
                { name: 'style', type: 'select', options: ['info', 'warning'], required: true },
                { name: 'category', type: 'relationship', relationTo: 'categories' },
              ],
            },
          ],
        },
        { name: 'sections', type: 'array', fields: [{ name: 'body', type: 'richText' }] },
        {
          name: 'layout',
          type: 'blocks',
          blocks: [{ slug: 'text', fields: [{ name: 'body', type: 'richText', required: true }] }],
        },
      ],
    },
  ],
  globals: [
    { slug: 'footer', access: { read: () => true, update: () => true }, fields: [{ name: 'note', type: 'richText' }] },
  ],
});

const rich = root(
  heading('h2', text('Hello <world>')),
  paragraph(
    text('Bold', 1),
    text(' and '),
    link('https://example.com/?a=1&b=2', [text('a link')], true),
    text(' and '),
    link('javascript:alert(1)', [text('bad')]),
  ),
  list('bullet', item(1, [text('one')]), item(2, [text('two')])),
  quote(text('Said')),
  upload(1),
  relationship('categories', 1),
  paragraph(internalLink('posts', 1, [text('self')])),
  block({ id: 'b1', blockType: 'banner', style: 'info', category: 1 }),
  hr(),
);

async function seed(t: TestServer) {
  const admin = await t.user('admin');
  const media = await t.request('POST', '/media', {
    token: admin.token,
    body: form(await png(), 'pic.png', { alt: 'A "blue" square' }),
  });
  expect(media.status).toBe(201);
  await t.request('POST', '/categories', { body: { title: 'News' } });
  // The text links to its own post, so the post exists before its content is written.
  await t.request('POST', '/posts', { body: { title: 'First', slug: 'first', status: 'published' } });
  const post = await t.request('PATCH', '/posts/1', { body: { content: rich } });
  expect(post.status).toBe(200);
}

const at = (children: unknown[]) => ({ title: 'X', content: root(...(children as Record<string, unknown>[])) });

runScenarios(
  'rich text fields',
  config,
  [
    {
      name: "a stored value comes back as the Lexical JSON written, with Payload's node shapes",
      method: 'GET',
      url: '/posts/1?depth=0',
      status: 200,
      contains: [
        '"type":"root"',
        '"tag":"h2"',
        '"listType":"bullet"',
        '"linkType":"custom"',
        '"type":"upload"',
        '"relationTo":"media"',
        '"value":1',
        '"blockType":"banner"',
        '"id":"b1"',
        '"version":3',
      ],
    },
    {
      name: 'an unknown node type is a 400 naming its path',
      method: 'POST',
      url: '/posts',
      body: at([paragraph(text('a')), paragraph(text('b')), paragraph(), { type: 'table', children: [] }]),
      status: 400,
      contains: ['"field":"content.root.children.3"', 'Unknown rich text node type'],
      events: {},
    },
    {
      name: 'a missing root is a 400 naming the field',
      method: 'POST',
      url: '/posts',
      body: { title: 'X', content: { children: [] } },
      status: 400,
      contains: ['"field":"content"'],
    },
    {
      name: 'a node in the wrong place (text at the top) is a 400',
      method: 'POST',
      url: '/posts',
      body: at([text('loose')]),
      status: 400,
      contains: ['"field":"content.root.children.0"', 'cannot sit inside'],
    },
    {
      name: 'a heading without an h1-h6 tag is a 400',
      method: 'POST',
      url: '/posts',
      body: at([{ ...heading('h2', text('x')), tag: 'h7' }]),
      status: 400,
      contains: ['"field":"content.root.children.0"'],
    },
    {
      name: 'a malformed text node deep inside names its path',
      method: 'POST',
      url: '/posts',
      body: at([list('number', item(1, [text('a')]), item(2, [{ ...text('b'), format: 'bold' }]))]),
      status: 400,
      contains: ['"field":"content.root.children.0.children.1.children.0"'],
    },
    {
      name: 'a format beyond the seven bits is a 400',
      method: 'POST',
      url: '/posts',
      body: at([paragraph(text('x', 128))]),
      status: 400,
      contains: ['bit mask'],
    },
    {
      name: 'an upload node pointing at a missing document is a 400 naming the node',
      method: 'POST',
      url: '/posts',
      body: at([upload(99)]),
      status: 400,
      contains: ['"field":"content.root.children.0"', 'No media document with id 99'],
    },
    {
      name: 'a relationship node to an unknown collection is a 400',
      method: 'POST',
      url: '/posts',
      body: at([relationship('nope', 1)]),
      status: 400,
      contains: ['Unknown collection \\"nope\\"'],
    },
    {
      name: 'an internal link to a missing document is a 400',
      method: 'POST',
      url: '/posts',
      body: at([paragraph(internalLink('posts', 42, [text('x')]))]),
      status: 400,
      contains: ['"field":"content.root.children.0.children.0.fields.doc"'],
    },
    {
      name: 'a block with an unknown block type names the block',
      method: 'POST',
      url: '/posts',
      body: at([block({ blockType: 'nope' })]),
      status: 400,
      contains: ['"field":"content.root.children.0.fields.blockType"'],
    },
    {
      name: 'a block missing a required field names the field',
      method: 'POST',
      url: '/posts',
      body: at([block({ blockType: 'banner' })]),
      status: 400,
      contains: ['"field":"content.root.children.0.fields.style"'],
    },
    {
      name: 'an inline block is checked like a block',
      method: 'POST',
      url: '/posts',
      body: at([paragraph(inlineBlock({ blockType: 'banner', style: 'loud' }))]),
      status: 400,
      contains: ['"field":"content.root.children.0.children.0.fields.style"'],
    },
    {
      name: 'a block in a field without blocks is a 400',
      method: 'POST',
      url: '/posts',
      body: { sections: [{ body: root(block({ blockType: 'banner', style: 'info' })) }] },
      status: 400,
      contains: ['"field":"sections.0.body.root.children.0"', 'takes no blocks'],
    },
    {
      name: 'missing defaults are filled in (version, format, indent, direction) and block ids are made',
      method: 'POST',
      url: '/posts',
      body: {
        title: 'Min',
        content: {
          root: {
            type: 'root',
            children: [
              { type: 'paragraph', children: [{ type: 'text', text: 'hi' }] },
              { type: 'block', fields: { blockType: 'banner', style: 'warning' } },
            ],
          },
        },
      },
      status: 201,
      events: { create: 1 },
      check: (res) => {
        const [p, b] = res.body.doc.content.root.children;
        expect(p).toMatchObject({
          version: 1,
          format: '',
          indent: 0,
          direction: null,
          children: [{ format: 0, mode: 'normal', style: '', detail: 0, version: 1 }],
        });
        expect(b.fields.id).toMatch(/^[0-9a-f]{24}$/);
        expect(b.version).toBe(2);
      },
    },
    {
      name: 'a Markdown string is stored as the same content in JSON',
      method: 'POST',
      url: '/posts?depth=0',
      body: {
        title: 'Md',
        content:
          '## Title\n\nSome **bold** and *it* and `code` and [a link](https://x.test).\n\n- one\n- two\n\n1. first\n\n- [x] done\n\n> quoted\n\n---',
      },
      status: 201,
      events: { create: 1 },
      check: (res) => {
        const nodes = res.body.doc.content.root.children;
        expect(nodes.map((n: { type: string }) => n.type)).toEqual([
          'heading',
          'paragraph',
          'list',
          'list',
          'list',
          'quote',
          'horizontalrule',
        ]);
        expect(nodes[0].tag).toBe('h2');
        expect(
          nodes[1].children.map((n: { format?: number; type: string }) => (n.type === 'text' ? n.format : n.type)),
        ).toEqual([0, 1, 0, 2, 0, 16, 0, 'link', 0]);
        expect(nodes[2].listType).toBe('bullet');
        expect(nodes[3]).toMatchObject({ listType: 'number', tag: 'ol' });
        expect(nodes[4].children[0].checked).toBe(true);
      },
    },
    {
      name: 'rich text inside array rows and block rows is validated and stored',
      method: 'POST',
      url: '/posts?depth=0',
      body: {
        title: 'Nest',
        sections: [{ body: root(paragraph(text('in array'))) }],
        layout: [{ blockType: 'text', body: '# from md' }],
      },
      status: 201,
      events: { create: 1 },
      contains: ['"in array"', '"tag":"h1"', '"from md"'],
    },
    {
      name: 'a required rich text with nothing in it is a 400',
      method: 'POST',
      url: '/posts',
      body: { layout: [{ blockType: 'text', body: root(paragraph()) }] },
      status: 400,
      contains: ['"field":"layout.0.body"', 'required'],
    },
    {
      name: "depth 1 populates upload and relationship nodes, internal links and blocks' relationships; unreadable ones are null",
      method: 'GET',
      url: '/posts/1',
      status: 200,
      check: (res) => {
        const nodes = res.body.content.root.children;
        expect(nodes[4].value).toMatchObject({
          id: 1,
          filename: expect.any(String),
          url: expect.stringContaining('/media/file/'),
        });
        expect(nodes[5].value).toBeNull();
        expect(nodes[6].children[0].fields.doc.value).toMatchObject({ id: 1, title: 'First' });
        expect(nodes[7].fields.category).toBeNull();
      },
    },
    {
      name: 'a reader allowed to read categories gets them populated inside rich text',
      method: 'GET',
      url: '/posts/1',
      as: 'admin',
      status: 200,
      check: (res) => {
        const nodes = res.body.content.root.children;
        expect(nodes[5].value).toMatchObject({ id: 1, title: 'News' });
        expect(nodes[7].fields.category).toMatchObject({ title: 'News' });
      },
    },
    {
      name: 'depth 0 leaves ids',
      method: 'GET',
      url: '/posts/1?depth=0',
      status: 200,
      check: (res) => expect(res.body.content.root.children[4].value).toBe(1),
    },
    {
      name: 'richText=html answers HTML: escaped text, safe links, the upload as <img> with size and alt',
      method: 'GET',
      url: '/posts/1?richText=html',
      status: 200,
      check: (res) => {
        const html: string = res.body.content;
        expect(html.startsWith('<div class="payload-richtext"><h2>Hello &lt;world&gt;</h2>')).toBe(true);
        expect(html).toContain('<strong>Bold</strong>');
        expect(html).toContain(
          '<a href="https://example.com/?a=1&amp;b=2" rel="noopener noreferrer" target="_blank">a link</a>',
        );
        expect(html).toContain('<a href="#">bad</a>');
        expect(html).not.toContain('javascript:');
        expect(html).toMatch(
          /<img\s+alt="A &quot;blue&quot; square"\s+height="32"\s+src="[^"]+\/media\/file\/[^"]+"\s+width="64"/,
        );
        expect(html).toContain('<a href="/posts/first">self</a>');
        expect(res.body.title).toBe('First');
      },
    },
    {
      name: 'richText=markdown answers Markdown',
      method: 'GET',
      url: '/posts/1?richText=markdown',
      status: 200,
      contains: [
        '"content":"## Hello \\\\<world\\\\>\\n\\n**Bold** and [a link](https://example.com/?a=1&b=2) and [bad](#)',
        '- one\\n- two',
        '> Said',
        '![A \\"blue\\" square](',
      ],
    },
    {
      name: 'richText=text answers plain text',
      method: 'GET',
      url: '/posts/1?richText=text',
      status: 200,
      contains: ['"content":"Hello <world>\\n\\nBold and a link and bad\\n\\none\\ntwo'],
    },
    {
      name: 'richText on a list converts every document',
      method: 'GET',
      url: '/posts?where[title][equals]=First&richText=text',
      status: 200,
      contains: ['"content":"Hello <world>'],
    },
    {
      name: 'an unknown richText format is a 400',
      method: 'GET',
      url: '/posts?richText=pdf',
      status: 400,
      contains: ['"field":"richText"'],
    },
    {
      name: 'GraphQL: richText on the field answers HTML, with the upload and the internal link read',
      method: 'POST',
      url: '/graphql',
      status: 200,
      events: { '*': 0 },
      body: { query: '{ Post(id: 1) { title json: content html: content(richText: html) } }' },
      check: (res) => {
        const post = res.body.data.Post;
        expect(post.json.root.children[0].tag).toBe('h2');
        expect(post.html).toStartWith('<div class="payload-richtext"><h2>Hello &lt;world&gt;</h2>');
        expect(post.html).toContain('<a href="#">bad</a>');
        expect(post.html).toMatch(
          /<img\s+alt="A &quot;blue&quot; square"\s+height="32"\s+src="[^"]+\/media\/file\/[^"]+"\s+width="64"/,
        );
        expect(post.html).toContain('<a href="/posts/first">self</a>');
      },
    },
    {
      name: 'GraphQL: richText on a query converts every rich text value under it, quoted or not',
      method: 'POST',
      url: '/graphql',
      status: 200,
      events: { '*': 0 },
      setup: async (t) => {
        expect((await t.request('POST', '/globals/footer', { body: { note: '**Made** with care' } })).status).toBe(200);
      },
      body: {
        query:
          '{ Posts(richText: text, where: { title: { equals: "First" } }) { docs { content } } Footer(richText: "markdown") { note } one: Post(id: 1, richText: text) { md: content(richText: markdown) } }',
      },
      check: (res) => {
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data.Posts.docs[0].content).toStartWith('Hello <world>\n\nBold and a link and bad');
        expect(res.body.data.Footer.note).toBe('**Made** with care');
        expect(res.body.data.one.md).toStartWith('## Hello \\<world\\>');
      },
    },
    {
      name: 'GraphQL: the JSON has its documents read like REST at depth 1, under read access; depth: 0 keeps ids',
      method: 'POST',
      url: '/graphql',
      status: 200,
      events: { '*': 0 },
      body: { query: '{ Post(id: 1) { content ids: content(depth: 0) } }' },
      check: async (res, t) => {
        const nodes = res.body.data.Post.content.root.children;
        expect(nodes[4].value).toMatchObject({ id: 1, alt: 'A "blue" square' });
        expect(nodes[5].value).toBeNull();
        expect(nodes[6].children[0].fields.doc.value).toMatchObject({ id: 1, slug: 'first' });
        expect(res.body.data.Post.ids.root.children[4].value).toBe(1);
        const admin = await t.user('admin');
        const asAdmin = await t.request('POST', '/graphql', {
          token: admin.token,
          body: { query: '{ Post(id: 1) { content } }' },
        });
        expect(asAdmin.body.data.Post.content.root.children[5].value).toMatchObject({ id: 1, title: 'News' });
      },
    },
    {
      name: 'GraphQL: an unknown richText format is refused',
      method: 'POST',
      url: '/graphql',
      status: 200,
      events: { '*': 0 },
      body: { query: '{ Post(id: 1) { content(richText: pdf) } }' },
      contains: ['"errors"', 'RichTextFormat'],
    },
    {
      name: 'the cache keeps JSON and HTML answers apart',
      method: 'GET',
      url: '/posts/1?depth=0',
      status: 200,
      setup: async (t) => {
        expect((await t.request('GET', '/posts/1?richText=html')).body.content).toStartWith('<div');
      },
      check: async (res, t) => {
        expect(typeof res.body.content).toBe('object');
        expect((await t.request('GET', '/posts/1?richText=html')).body.content).toStartWith('<div');
        expect(typeof (await t.request('GET', '/posts/1?depth=0')).body.content).toBe('object');
      },
    },
    {
      name: 'localized rich text: one locale per write, the default locale as fallback',
      method: 'GET',
      url: '/posts/1?locale=de&richText=text',
      status: 200,
      contains: ['"content":"Hello <world>'],
      check: async (_res, t) => {
        expect((await t.request('PATCH', '/posts/1?locale=de', { body: { content: '# Hallo' } })).status).toBe(200);
        expect((await t.request('GET', '/posts/1?locale=de&richText=text')).body.content).toBe('Hallo');
        expect((await t.request('GET', '/posts/1?locale=en&richText=text')).body.content).toStartWith('Hello');
        const all = (await t.request('GET', '/posts/1?locale=all&richText=text&depth=0')).body.content;
        expect(all).toEqual({ en: expect.stringContaining('Hello'), de: 'Hallo' });
      },
    },
    {
      name: 'drafts and versions keep rich text; the live document stays until published',
      method: 'PATCH',
      url: '/posts/1?draft=true',
      body: { content: 'draft *text*' },
      status: 200,
      events: { draft: 1 },
      check: async (_res, t) => {
        expect((await t.request('GET', '/posts/1?richText=text')).body.content).toStartWith('Hello');
        const admin = await t.user('admin');
        expect(
          (await t.request('GET', '/posts/1?draft=true&richText=markdown', { token: admin.token })).body.content,
        ).toBe('draft *text*');
        const versions = await t.request('GET', '/posts/1/versions', { token: admin.token });
        expect(JSON.stringify(versions.body.docs[0].version.content)).toContain('"draft "');
      },
    },
    {
      name: 'a global holds rich text too, and reads convert',
      method: 'POST',
      url: '/globals/footer',
      body: { note: '**Made** with care' },
      status: 200,
      events: { update: 1 },
      check: async (_res, t) => {
        expect((await t.request('GET', '/globals/footer?richText=html')).body.note).toBe(
          '<div class="payload-richtext"><p><strong>Made</strong> with care</p></div>',
        );
      },
    },
  ],
  { seed },
);
