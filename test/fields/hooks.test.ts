/** Field options: hooks at any nesting, virtual fields, admin.condition (validation and the visibility endpoint), the admin config. */
import { expect } from 'bun:test';
import { runScenarios, type Scenario, type TestServer } from '../harness.ts';
import type { FieldHookArgs, UserConfig } from '../../src/config/types.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
const seen: Record<string, FieldHookArgs[]> = {};
const record = (name: string) => (args: FieldHookArgs) => {
  (seen[name] ??= []).push(args);
  return undefined;
};

const config: UserConfig = {
  collections: [
    {
      slug: 'articles',
      access: open,
      fields: [
        {
          name: 'title',
          type: 'text',
          hooks: {
            beforeValidate: [({ value }) => (typeof value === 'string' ? value.trim() : value)],
            afterChange: [record('titleAfterChange')],
          },
        },
        {
          name: 'slug',
          type: 'text',
          hooks: {
            beforeChange: ({ siblingData }) =>
              String(siblingData.title ?? '')
                .toLowerCase()
                .replaceAll(' ', '-'),
          },
        },
        {
          name: 'shout',
          type: 'text',
          virtual: true,
          hooks: { afterRead: [({ data }) => String(data.title ?? '').toUpperCase()] },
        },
        {
          name: 'meta',
          type: 'group',
          fields: [
            {
              name: 'note',
              type: 'text',
              hooks: {
                beforeChange: [({ value, operation }) => (value ? `${value} (${operation})` : value)],
                afterRead: [record('noteAfterRead')],
              },
            },
          ],
        },
        {
          name: 'rows',
          type: 'array',
          fields: [
            {
              name: 'n',
              type: 'number',
              hooks: { beforeChange: [({ value }) => (typeof value === 'number' ? value * 2 : value)] },
            },
          ],
        },
        { name: 'kind', type: 'select', options: ['text', 'link'] },
        {
          name: 'url',
          type: 'text',
          required: true,
          admin: {
            condition: (data) => data.kind === 'link',
            description: 'Where it goes',
            placeholder: 'https://',
            position: 'sidebar',
            width: '50%',
            readOnly: false,
          },
        },
      ],
    },
    {
      // Payload's website template stamps `publishedAt` from a field hook that reads `siblingData._status`.
      slug: 'stories',
      access: open,
      versions: { drafts: true },
      fields: [
        { name: 'title', type: 'text' },
        {
          name: 'publishedAt',
          type: 'date',
          hooks: {
            beforeChange: [
              ({ siblingData, value }) =>
                siblingData._status === 'published' && !value ? new Date('2030-01-02T03:04:05.000Z') : value,
            ],
          },
        },
      ],
    },
  ],
};

// One article, saved as the first row saves one, for the rows that change or read an article.
async function seed(t: TestServer) {
  const res = await t.request('POST', '/articles', {
    body: { title: '  Hello World ', meta: { note: 'n' }, rows: [{ n: 2 }, { n: 5 }] },
  });
  if (res.status !== 201 || res.body.doc.id !== 1) throw new Error(res.text);
}

const retitle = async (t: TestServer) => {
  const res = await t.request('PATCH', '/articles/1', { body: { title: 'Second' } });
  if (res.status !== 200) throw new Error(res.text);
};

const scenarios: Scenario[] = [
  {
    name: 'beforeValidate and beforeChange hooks shape stored values, at any nesting',
    method: 'POST',
    url: '/articles',
    body: { title: '  Hello World ', meta: { note: 'n' }, rows: [{ n: 2 }, { n: 5 }] },
    status: 201,
    events: { create: 1 },
    check: (res) => {
      const doc = res.body.doc;
      expect(doc.title).toBe('Hello World');
      expect(doc.slug).toBe('hello-world');
      expect(doc.meta.note).toBe('n (create)');
      expect(doc.rows.map((r: any) => r.n)).toEqual([4, 10]);
    },
  },
  {
    name: 'afterChange gets the saved value, the document and the operation',
    method: 'PATCH',
    url: '/articles/1',
    body: { title: 'Second' },
    status: 200,
    events: { update: 1 },
    contains: ['"title":"Second"'],
    check: () => {
      const last = seen.titleAfterChange.at(-1)!;
      expect(last.value).toBe('Second');
      expect(last.operation).toBe('update');
      expect((last.originalDoc as any).title).toBe('Hello World');
    },
  },
  {
    name: 'a virtual field gets its value from afterRead and is not stored',
    method: 'GET',
    url: '/articles/1',
    setup: retitle,
    status: 200,
    contains: ['"shout":"SECOND"'],
    check: async (_res, t) => {
      const row = await t.cms.store.get<Record<string, unknown>>('SELECT * FROM "articles" WHERE "id" = 1');
      expect(row && 'shout' in row).toBe(false);
      expect(seen.noteAfterRead.at(-1)!.path).toBe('meta.note');
    },
  },
  {
    name: 'a value sent for a virtual field is not stored',
    method: 'PATCH',
    url: '/articles/1',
    body: { shout: 'nope' },
    setup: retitle,
    status: 200,
    events: { update: 1 },
    contains: ['"shout":"SECOND"'],
  },
  {
    name: 'a virtual field cannot be queried',
    method: 'GET',
    url: '/articles?where[shout][equals]=SECOND',
    status: 400,
    contains: ['"field":"shout"', 'is not stored, so it cannot be queried'],
  },
  {
    name: 'a field hidden by its condition is not required',
    method: 'POST',
    url: '/articles',
    body: { title: 'Plain', kind: 'text' },
    status: 201,
    events: { create: 1 },
    contains: ['"title":"Plain"', '"kind":"text"', '"url":null'],
  },
  {
    name: 'while its condition holds it is required',
    method: 'POST',
    url: '/articles',
    body: { title: 'Link', kind: 'link' },
    status: 400,
    contains: ['"field":"url"', 'This field is required.'],
  },
  {
    name: 'a hidden field keeps its stored value',
    method: 'POST',
    url: '/articles',
    body: { title: 'Was link', kind: 'link', url: 'https://a.example' },
    status: 201,
    events: { create: 1 },
    check: async (created, t) => {
      const res = await t.request('PATCH', `/articles/${created.body.doc.id}`, { body: { kind: 'text' } });
      expect(res.body.doc.url).toBe('https://a.example');
    },
  },
  {
    name: 'the visibility endpoint answers per path for the given data',
    method: 'POST',
    url: '/_admin/conditions/articles',
    as: 'editor',
    body: { data: { kind: 'link' } },
    status: 200,
    events: { '*': 0 },
    check: (res) => expect(res.body.visible).toEqual({ url: true }),
  },
  {
    name: 'the visibility endpoint with other data',
    method: 'POST',
    url: '/_admin/conditions/articles',
    as: 'editor',
    body: { data: { kind: 'text' } },
    status: 200,
    events: { '*': 0 },
    check: (res) => expect(res.body.visible).toEqual({ url: false }),
  },
  {
    name: 'the visibility endpoint needs a login',
    method: 'POST',
    url: '/_admin/conditions/articles',
    body: { data: {} },
    status: 401,
    contains: ['"errors"', 'You must be logged in'],
  },
  {
    name: 'the visibility endpoint: unknown collection',
    method: 'POST',
    url: '/_admin/conditions/nope',
    as: 'editor',
    body: { data: {} },
    status: 404,
    contains: ['"errors"', 'Unknown collection or global.'],
  },
  {
    name: 'the admin config carries admin options as plain data, the condition as a flag',
    method: 'GET',
    url: '/_admin/config',
    as: 'editor',
    status: 200,
    check: (res) => {
      const fields = res.body.collections.find((c: any) => c.slug === 'articles').fields;
      const url = fields.find((f: any) => f.name === 'url');
      expect(url.admin).toEqual({
        condition: true,
        description: 'Where it goes',
        placeholder: 'https://',
        position: 'sidebar',
        width: '50%',
        readOnly: false,
      });
      expect(fields.find((f: any) => f.name === 'shout').virtual).toBe(true);
    },
  },
  {
    name: 'beforeChange hooks see the status a save asks for as _status',
    method: 'POST',
    url: '/stories',
    body: { title: 'Out', _status: 'published' },
    status: 201,
    events: { create: 1, publish: 1 },
    check: (res) =>
      expect(res.body.doc).toMatchObject({ publishedAt: '2030-01-02T03:04:05.000Z', _status: 'published' }),
  },
  {
    name: 'a draft save leaves such a hook alone',
    method: 'POST',
    url: '/stories',
    body: { title: 'Not yet', _status: 'draft' },
    status: 201,
    events: { create: 1 },
    check: (res) => expect(res.body.doc).toMatchObject({ publishedAt: null, _status: 'draft' }),
  },
  {
    name: 'a selection leaves virtual fields out unless it names them',
    method: 'POST',
    url: '/articles',
    body: { title: 'Picked' },
    status: 201,
    events: { create: 1 },
    check: async (res, t) => {
      const id = res.body.doc.id;
      const some = await t.request('GET', `/articles/${id}?select[title]=true`);
      expect(some.body).toEqual({ id, title: 'Picked' });
      const list = await t.request('GET', `/articles?where[id][equals]=${id}&select[title]=true`);
      expect(list.body.docs).toEqual([{ id, title: 'Picked' }]);
      const named = await t.request('GET', `/articles/${id}?select[title]=true&select[shout]=true`);
      expect(named.body).toEqual({ id, title: 'Picked', shout: 'PICKED' });
      await t.request('DELETE', `/articles/${id}`);
    },
  },
];

runScenarios('field hooks, virtual fields and conditions', config, scenarios, { seed });
