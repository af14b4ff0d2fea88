/** Collection documents over REST: create, read, update, delete, validation, unique, hidden fields, events. */
import { expect } from 'bun:test';
import { runScenarios, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };

export const postsConfig: UserConfig = {
  collections: [
    {
      slug: 'posts',
      access: open,
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'slug', type: 'text', unique: true },
        { name: 'email', type: 'email' },
        { name: 'views', type: 'number', min: 0 },
        { name: 'featured', type: 'checkbox' },
        { name: 'publishedOn', type: 'date' },
        { name: 'kind', type: 'select', options: ['news', 'blog'] },
        { name: 'tags', type: 'select', options: ['a', 'b', 'c'], hasMany: true },
        { name: 'meta', type: 'json' },
        { name: 'secret', type: 'text', hidden: true },
        {
          name: 'even',
          type: 'number',
          validate: (v: unknown) => (v === null || v === undefined || Number(v) % 2 === 0 ? true : 'Must be even.'),
        },
        { name: 'seo', type: 'group', fields: [{ name: 'title', type: 'text', required: true }] },
        { name: 'items', type: 'array', fields: [{ name: 'label', type: 'text', required: true }] },
        { name: 'status', type: 'select', options: ['draft', 'published'] },
      ],
    },
  ],
};

runScenarios(
  'collection CRUD',
  postsConfig,
  [
    {
      name: 'create answers 201 { doc, message }',
      method: 'POST',
      url: '/posts',
      body: { title: 'Third', slug: 'third', views: 1, secret: 's3cret', seo: { title: 'S' } },
      status: 201,
      contains: ['"doc":{"id":3', '"message"', '"title":"Third"', '"createdAt"'],
      notContains: ['s3cret', 'secret'],
      events: { create: 1 },
    },
    {
      name: 'create that publishes sends create + publish',
      method: 'POST',
      url: '/posts',
      body: { title: 'Another', slug: 'another', status: 'published', views: 5 },
      status: 201,
      contains: ['"title":"Another"', '"status":"published"'],
      events: { create: 1, publish: 1 },
    },
    {
      name: 'read one returns the document itself',
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"id":1', '"title":"First"'],
      notContains: ['"doc"', 's3cret'],
    },
    {
      name: 'missing required field is a 400 naming it',
      method: 'POST',
      url: '/posts',
      body: { slug: 'x' },
      status: 400,
      contains: ['"field":"title"'],
      events: {},
    },
    {
      name: 'wrong type is a 400',
      method: 'POST',
      url: '/posts',
      body: { title: 'x', views: 'many' },
      status: 400,
      contains: ['"field":"views"'],
    },
    {
      name: 'bad email is a 400',
      method: 'POST',
      url: '/posts',
      body: { title: 'x', email: 'nope' },
      status: 400,
      contains: ['"field":"email"'],
    },
    {
      name: 'number below min is a 400',
      method: 'POST',
      url: '/posts',
      body: { title: 'x', views: -1 },
      status: 400,
      contains: ['"field":"views"'],
    },
    {
      name: 'checkbox takes booleans only',
      method: 'POST',
      url: '/posts',
      body: { title: 'x', featured: 'yes' },
      status: 400,
      contains: ['"field":"featured"'],
    },
    {
      name: 'invalid date is a 400',
      method: 'POST',
      url: '/posts',
      body: { title: 'x', publishedOn: 'someday' },
      status: 400,
      contains: ['"field":"publishedOn"'],
    },
    {
      name: 'select outside options is a 400',
      method: 'POST',
      url: '/posts',
      body: { title: 'x', kind: 'poem' },
      status: 400,
      contains: ['"field":"kind"'],
    },
    {
      name: 'hasMany select takes a list',
      method: 'POST',
      url: '/posts',
      body: { title: 'x', tags: 'a' },
      status: 400,
      contains: ['"field":"tags"'],
    },
    {
      name: 'custom validate message is returned',
      method: 'POST',
      url: '/posts',
      body: { title: 'x', even: 3 },
      status: 400,
      contains: ['Must be even.', '"field":"even"'],
    },
    {
      name: 'group subfield required',
      method: 'POST',
      url: '/posts',
      body: { title: 'x', seo: {} },
      status: 400,
      contains: ['"field":"seo.title"'],
    },
    {
      name: 'array row field required',
      method: 'POST',
      url: '/posts',
      body: { title: 'x', items: [{ label: 'ok' }, {}] },
      status: 400,
      contains: ['"field":"items.1.label"'],
    },
    {
      name: 'duplicate unique value is a 400 naming the field',
      method: 'POST',
      url: '/posts',
      body: { title: 'dup', slug: 'first' },
      status: 400,
      contains: ['"field":"slug"'],
      events: {},
    },
    {
      name: 'malformed JSON is a 400',
      method: 'POST',
      url: '/posts',
      body: '{"title": ',
      headers: { 'content-type': 'application/json' },
      status: 400,
      contains: ['not valid JSON'],
    },
    {
      name: 'a JSON array body is a 400',
      method: 'POST',
      url: '/posts',
      body: [1, 2],
      status: 400,
      contains: ['"errors"', 'The request body must be a JSON object.'],
      events: { '*': 0 },
    },
    // The id right after the last one: the refused duplicate just before took none, on either engine (docs/postgres.md).
    {
      name: 'full create keeps every type',
      setup: refusedDuplicate,
      method: 'POST',
      url: '/posts',
      body: {
        title: 'Full',
        featured: true,
        publishedOn: '2026-02-03',
        kind: 'news',
        tags: ['a', 'c'],
        meta: { deep: [1, { x: 2 }] },
        items: [{ label: 'one' }],
      },
      status: 201,
      events: { create: 1 },
      check: (res) => expect(res.body.doc.id).toBe(lastId + 1),
      contains: [
        '"featured":true',
        '"publishedOn":"2026-02-03T00:00:00.000Z"',
        '"tags":["a","c"]',
        '"meta":{"deep":[1,{"x":2}]}',
        '"label":"one"',
      ],
    },
    {
      name: 'update changes only the fields given',
      method: 'PATCH',
      url: '/posts/1',
      body: { views: 7 },
      status: 200,
      contains: ['"views":7', '"title":"First"', '"slug":"first"'],
      events: { update: 1 },
    },
    {
      name: 'update that publishes sends update + publish',
      method: 'PATCH',
      url: '/posts/1',
      body: { status: 'published' },
      status: 200,
      contains: ['"id":1', '"status":"published"'],
      events: { update: 1, publish: 1 },
    },
    {
      name: 'update that leaves published sends update + unpublish',
      method: 'PATCH',
      url: '/posts/2',
      body: { status: 'draft' },
      status: 200,
      contains: ['"id":2', '"status":"draft"'],
      events: { update: 1, unpublish: 1 },
    },
    {
      name: 'update cannot null a required field',
      method: 'PATCH',
      url: '/posts/1',
      body: { title: null },
      status: 400,
      contains: ['"field":"title"'],
    },
    {
      name: 'update ignores id and timestamps',
      method: 'PATCH',
      url: '/posts/1',
      body: { id: 99, createdAt: '2000-01-01' },
      status: 200,
      events: { update: 1 },
      contains: ['"id":1'],
      notContains: ['2000-01-01'],
    },
    {
      name: 'update of a missing document is a 404',
      method: 'PATCH',
      url: '/posts/999',
      body: { views: 1 },
      status: 404,
      contains: ['"errors"', 'Document not found.'],
      events: { '*': 0 },
    },
    {
      name: 'a non-numeric id is a 404',
      method: 'GET',
      url: '/posts/abc',
      status: 404,
      contains: ['"errors"', 'Document not found.'],
      events: { '*': 0 },
    },
    {
      name: 'delete answers { doc, message }',
      method: 'DELETE',
      url: '/posts/2',
      status: 200,
      contains: ['"doc":{"id":2', '"message"'],
      events: { delete: 1 },
    },
    {
      name: 'deleted document is gone',
      setup: async (t) => {
        await t.request('DELETE', '/posts/2');
      },
      method: 'GET',
      url: '/posts/2',
      status: 404,
      contains: ['"errors"', 'Document not found.'],
    },
    {
      name: 'unknown collection is a 404',
      method: 'GET',
      url: '/nothing',
      status: 404,
      contains: ['"errors"', 'Collection \\"nothing\\" not found.'],
    },
    {
      name: 'unknown route is a 404',
      method: 'GET',
      url: '/posts/1/what/ever',
      status: 404,
      contains: ['"errors"', 'Not Found'],
    },
    {
      name: 'wrong method is a 405',
      method: 'PUT',
      url: '/posts/1',
      status: 405,
      contains: ['"errors"', 'Method Not Allowed'],
    },
    // DELETE and PATCH on the list are the bulk writes by where (docs/payload-compatibility.md, test/http/payload-compat.test.ts).
    {
      name: 'wrong method on the list is a 405',
      method: 'PUT',
      url: '/posts',
      status: 405,
      contains: ['"errors"', 'Method Not Allowed'],
      events: { '*': 0 },
    },
  ],
  {
    async seed(t) {
      await t.request('POST', '/posts', {
        body: { title: 'First', slug: 'first', views: 1, secret: 's3cret', seo: { title: 'S' } },
      });
      await t.request('POST', '/posts', { body: { title: 'Second', slug: 'second', status: 'published', views: 5 } });
    },
  },
);

let lastId = 0;

/** Creates a document (its id is `lastId`), then has a duplicate refused. */
async function refusedDuplicate(t: TestServer): Promise<void> {
  lastId = (await t.request('POST', '/posts', { body: { title: 'Before' } })).body.doc.id;
  const res = await t.request('POST', '/posts', { body: { title: 'dup', slug: 'first' } });
  if (res.status !== 400) throw new Error(`the duplicate was not refused: ${res.status}`);
}
