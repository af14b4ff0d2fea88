/**
 * Document writes as multipart/form-data, as Payload's clients send them: the fields as JSON in a
 * `_payload` part (other text parts read by their field's type), on every write (create, update, bulk
 * update, globals) and on collections without uploads, under the same bounds as JSON bodies.
 */
import { expect } from 'bun:test';
import { runScenarios, type Scenario, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { MAX_JSON_BODY } from '../../src/http/body.ts';

const config: UserConfig = {
  collections: [
    {
      slug: 'posts',
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'views', type: 'number' },
        { name: 'tags', type: 'array', fields: [{ name: 'name', type: 'text' }] },
      ],
    },
  ],
  globals: [{ slug: 'site', fields: [{ name: 'name', type: 'text' }] }],
};

async function seed(t: TestServer) {
  const admin = await t.session('admin');
  for (const title of ['One', 'Two']) {
    const res = await t.request('POST', '/posts', { token: admin.token, body: { title } });
    if (res.status !== 201) throw new Error(res.text);
  }
}

/** A form with `_payload` holding `data` as JSON, and any further text parts. */
function form(data: unknown, parts: Record<string, string | Blob> = {}): () => FormData {
  return () => {
    const body = new FormData();
    if (data !== undefined) body.set('_payload', typeof data === 'string' ? data : JSON.stringify(data));
    for (const [name, value] of Object.entries(parts)) body.set(name, value);
    return body;
  };
}

const rows: Scenario[] = [
  {
    name: 'a create of a collection without uploads takes _payload',
    as: 'admin',
    method: 'POST',
    url: '/posts',
    body: form({ title: 'From a form', tags: [{ name: 'a' }] }),
    status: 201,
    contains: ['"title":"From a form"', '"name":"a"'],
    events: { create: 1, '*': 0 },
  },
  {
    name: 'text parts beside _payload are read by their field’s type',
    as: 'admin',
    method: 'POST',
    url: '/posts',
    body: form({ title: 'Counted' }, { views: '7' }),
    status: 201,
    contains: ['"title":"Counted"', '"views":7'],
    events: { create: 1, '*': 0 },
  },
  {
    name: 'an update takes _payload',
    as: 'admin',
    method: 'PATCH',
    url: '/posts/1',
    body: form({ views: 3 }),
    status: 200,
    contains: ['"title":"One"', '"views":3'],
    events: { update: 1, '*': 0 },
  },
  {
    name: 'a bulk update takes _payload',
    as: 'admin',
    method: 'PATCH',
    url: '/posts?where[title][in]=One,Two',
    body: form({ views: 9 }),
    status: 200,
    contains: ['"views":9', 'Updated 2 of 2 documents.'],
    events: { update: 2, '*': 0 },
  },
  {
    name: 'a global save takes _payload',
    as: 'admin',
    method: 'POST',
    url: '/globals/site',
    body: form({ name: 'My site' }),
    status: 200,
    contains: ['"name":"My site"'],
    events: { update: 1, '*': 0 },
  },
  {
    name: 'the fields are validated as JSON ones are',
    as: 'admin',
    method: 'POST',
    url: '/posts',
    body: form({ views: 'many' }),
    status: 400,
    contains: ['"field":"title"', '"field":"views"'],
    events: {},
  },
  {
    name: 'a _payload that is not JSON is a 400 naming it',
    as: 'admin',
    method: 'PATCH',
    url: '/posts?where[title][equals]=One',
    body: form('{not json'),
    status: 400,
    contains: ['"field":"_payload"', 'not valid JSON'],
    events: {},
  },
  {
    name: 'a file part is refused where no upload is taken',
    as: 'admin',
    method: 'POST',
    url: '/posts',
    body: form({ title: 'With a file' }, { file: new Blob(['hello'], { type: 'text/plain' }) }),
    status: 400,
    contains: ['"field":"file"', 'upload'],
    events: {},
  },
  {
    name: 'a form over the JSON body limit is a 413',
    as: 'admin',
    method: 'POST',
    url: '/posts',
    body: form({ title: 'x'.repeat(MAX_JSON_BODY + 10) }),
    status: 413,
    contains: ['"errors"', 'larger than'],
    events: {},
    check: async (_res, t) => {
      expect((await t.request('GET', '/posts')).body.totalDocs).toBe(2);
    },
  },
  {
    name: 'anonymous multipart writes are refused before the body is read',
    method: 'POST',
    url: '/posts',
    body: form({ title: 'Nobody' }),
    status: 401,
    contains: ['"errors"'],
    events: {},
  },
];

runScenarios('multipart writes with _payload', config, rows, { seed });
