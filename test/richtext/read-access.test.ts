/**
 * Fields of blocks inside rich text are read like a blocks field's rows (docs/rich-text.md): hidden fields
 * never leave the server (reads in one locale or all, webhook bodies), fields whose read access says no
 * are left out for that reader; preview-token reads take `richText=` like any read.
 */
import { afterAll, expect } from 'bun:test';
import type { UserConfig } from '../../src/config/types.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';
import { runScenarios, type TestServer } from '../harness.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { block, inlineBlock, paragraph, root, text } from '../fixtures/richtext/nodes.ts';

const receiver = startReceiver();
afterAll(() => receiver.stop());

const card = {
  slug: 'card',
  fields: [
    { name: 'heading', type: 'text' as const },
    { name: 'internalNote', type: 'text' as const, hidden: true },
    {
      name: 'staffOnly',
      type: 'text' as const,
      access: { read: ({ user }: { user?: { role?: string } | null }) => user?.role === 'admin' },
    },
  ],
};

const config = (): UserConfig => ({
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  webhooks: [{ url: receiver.url }],
  collections: [
    {
      slug: 'posts',
      drafts: true,
      access: { read: () => true, create: ({ user }) => Boolean(user), update: ({ user }) => Boolean(user) },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'content', type: 'richText', localized: true, blocks: [card] },
      ],
    },
  ],
});

const content = (lang: string) =>
  root(
    paragraph(
      text(`Text ${lang} `),
      inlineBlock({
        id: `i-${lang}`,
        blockType: 'card',
        heading: `Inline ${lang}`,
        internalNote: 'inline-secret-note',
        staffOnly: 'inline-staff-eyes',
      }),
    ),
    block({
      id: `b-${lang}`,
      blockType: 'card',
      heading: `Visible ${lang}`,
      internalNote: 'secret-note',
      staffOnly: 'staff-eyes',
    }),
  );

// Each row that reads through a preview link makes its own in its setup, rather than leaning on the row
// that makes one.
const previewToken: { value?: string } = {};
const makePreviewLink = async (t: TestServer) => {
  const admin = await t.session('admin');
  const res = await t.request('POST', '/posts/1/preview', { token: admin.token, body: {} });
  expect(res.status).toBe(200);
  previewToken.value = new URL(res.body.url).searchParams.get('preview')!;
};

async function seed(t: TestServer) {
  const admin = await t.session('admin');
  const made = await t.request('POST', '/posts', {
    token: admin.token,
    body: { title: 'Cards', status: 'published', content: content('en') },
  });
  expect(made.status).toBe(201);
  expect(
    (await t.request('PATCH', '/posts/1?locale=de', { token: admin.token, body: { content: content('de') } })).status,
  ).toBe(200);
  // The pending draft holds the same blocks.
  expect(
    (
      await t.request('PATCH', '/posts/1?draft=true', {
        token: admin.token,
        body: { title: 'Cards', content: content('en') },
      })
    ).status,
  ).toBe(200);
}

runScenarios(
  'rich text blocks: hidden and denied fields, preview',
  config,
  [
    {
      name: "a reader without the field's read access gets neither hidden nor denied block fields",
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['Visible en', 'Inline en', '"blockType":"card"'],
      notContains: ['secret-note', 'staff-eyes', 'internalNote', 'staffOnly'],
    },
    {
      name: 'an admin gets the denied field, never the hidden one',
      as: 'admin',
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"staffOnly":"staff-eyes"', 'inline-staff-eyes'],
      notContains: ['secret-note'],
    },
    {
      name: "read in every locale, each locale's blocks are stripped",
      method: 'GET',
      url: '/posts/1?locale=all',
      status: 200,
      contains: ['Visible en', 'Visible de'],
      notContains: ['secret-note', 'staff-eyes'],
    },
    {
      name: 'lists strip them too',
      method: 'GET',
      url: '/posts?where[title][equals]=Cards',
      status: 200,
      contains: ['Visible en'],
      notContains: ['secret-note', 'staff-eyes'],
    },
    {
      name: 'the draft read strips them',
      as: 'editor',
      method: 'GET',
      url: '/posts/1?draft=true',
      status: 200,
      contains: ['Visible en'],
      notContains: ['secret-note', 'staff-eyes'],
    },
    {
      name: 'webhook bodies leave hidden block fields out',
      method: 'GET',
      url: '/posts/1',
      status: 200,
      check: async (_res, t) => {
        await flushWebhooks(t.cms);
        const bodies = receiver.requests.filter((r) => r.json?.collection === 'posts').map((r) => r.body);
        expect(bodies.length).toBeGreaterThan(0);
        for (const body of bodies) {
          expect(body).toContain('Visible en');
          expect(body).not.toContain('secret-note');
        }
      },
    },
    {
      name: 'a preview link can be made',
      as: 'admin',
      method: 'POST',
      url: '/posts/1/preview',
      body: {},
      status: 200,
      events: { '*': 0 },
      check: (res) => expect(new URL(res.body.url).searchParams.get('preview')).toBeTruthy(),
    },
    {
      name: 'a preview-token read honours richText=html',
      method: 'GET',
      setup: makePreviewLink,
      url: () => `/posts/1?preview=${previewToken.value}&richText=html`,
      status: 200,
      check: (res) => {
        expect(typeof res.body.content).toBe('string');
        expect(res.body.content).toStartWith('<div class="payload-richtext"><p>Text en');
      },
    },
    {
      name: 'a preview-token read honours richText=text',
      method: 'GET',
      setup: makePreviewLink,
      url: () => `/posts/1?preview=${previewToken.value}&richText=text`,
      status: 200,
      check: (res) => expect(res.body.content).toBe('Text en '),
    },
    {
      name: 'a preview-token read with a bad richText is a 400',
      method: 'GET',
      setup: makePreviewLink,
      url: () => `/posts/1?preview=${previewToken.value}&richText=pdf`,
      status: 400,
      contains: ['"field":"richText"'],
    },
  ],
  { seed },
);
