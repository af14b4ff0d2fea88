/**
 * Every text-like and structured value has a maximum size, and so has a whole document (docs/config.md,
 * "Size limits"): a megabyte title is a 400 naming the field, and nothing is stored.
 */
import { expect } from 'bun:test';
import { runScenarios, type Scenario, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = {
  collections: [
    {
      slug: 'notes',
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'body', type: 'textarea' },
        { name: 'md', type: 'markdown', maxLength: 10 },
        { name: 'data', type: 'json' },
        { name: 'small', type: 'json', maxSize: 100 },
        { name: 'tags', type: 'text', hasMany: true },
        { name: 'links', type: 'array', fields: [{ name: 'label', type: 'text' }] },
      ],
    },
    {
      slug: 'cards',
      maxDocumentSize: 10_000,
      access: { read: () => true },
      fields: [
        { name: 'front', type: 'textarea' },
        { name: 'back', type: 'textarea' },
      ],
    },
  ],
};

const x = (n: number) => 'x'.repeat(n);
const refused = (field: string, fragment: string): Pick<Scenario, 'status' | 'contains' | 'events' | 'check'> => ({
  status: 400,
  contains: [fragment],
  events: {},
  check: (res) => expect(res.body.errors[0].field).toBe(field),
});

// A note with the longest title kept and a card within its document size, for the updates to grow.
async function seed(t: TestServer) {
  const editor = await t.user('editor');
  const note = await t.request('POST', '/notes', { token: editor.token, body: { title: x(65_536) } });
  const card = await t.request('POST', '/cards', { token: editor.token, body: { front: x(4_000), back: x(4_000) } });
  if (note.status !== 201 || note.body.doc.id !== 1) throw new Error(note.text);
  if (card.status !== 201 || card.body.doc.id !== 1) throw new Error(card.text);
}

// What the refused rows send, sent again before the row that checks none of it was stored.
const refusedWrites: [string, string, Record<string, unknown>][] = [
  ['POST', '/notes', { title: x(65_537) }],
  ['POST', '/notes', { body: x(1_048_577) }],
  ['POST', '/notes', { md: x(11) }],
  ['POST', '/notes', { data: { text: x(1_048_576) } }],
  ['POST', '/notes', { small: { text: x(100) } }],
  ['POST', '/notes', { tags: ['ok', x(65_537)] }],
  ['POST', '/notes', { links: [{ label: x(65_537) }] }],
  ['PATCH', '/notes/1', { title: x(70_000) }],
];
let notesBefore = 0;

runScenarios(
  'size limits',
  config,
  [
    {
      name: 'a text value of 64 Ki characters is kept',
      as: 'editor',
      method: 'POST',
      url: '/notes',
      body: { title: x(65_536) },
      status: 201,
      events: { create: 1 },
      check: (res) => expect(res.body.doc.title).toBe(x(65_536)),
    },
    {
      name: 'one character more is a 400 naming the field',
      as: 'editor',
      method: 'POST',
      url: '/notes',
      body: { title: x(65_537) },
      ...refused('title', 'at most 65536 characters'),
    },
    {
      name: 'a 2 MB title is a 400',
      as: 'editor',
      method: 'POST',
      url: '/notes',
      body: { title: x(2_000_000) },
      ...refused('title', 'at most 65536 characters'),
    },
    {
      name: 'a textarea over 1 Mi characters is a 400',
      as: 'editor',
      method: 'POST',
      url: '/notes',
      body: { body: x(1_048_577) },
      ...refused('body', 'at most 1048576 characters'),
    },
    {
      name: 'a configured maxLength counts for markdown',
      as: 'editor',
      method: 'POST',
      url: '/notes',
      body: { md: x(11) },
      ...refused('md', 'at most 10 characters'),
    },
    {
      name: 'json over 1 MB is a 400',
      as: 'editor',
      method: 'POST',
      url: '/notes',
      body: { data: { text: x(1_048_576) } },
      ...refused('data', 'at most 1048576 bytes'),
    },
    {
      name: 'a configured maxSize counts for json',
      as: 'editor',
      method: 'POST',
      url: '/notes',
      body: { small: { text: x(100) } },
      ...refused('small', 'at most 100 bytes'),
    },
    {
      name: 'each item of a hasMany text is bounded',
      as: 'editor',
      method: 'POST',
      url: '/notes',
      body: { tags: ['ok', x(65_537)] },
      ...refused('tags', 'at most 65536 characters'),
    },
    {
      name: 'text inside array rows is bounded, named by its path',
      as: 'editor',
      method: 'POST',
      url: '/notes',
      body: { links: [{ label: x(65_537) }] },
      ...refused('links.0.label', 'at most 65536 characters'),
    },
    {
      name: 'an update too large changes nothing',
      as: 'editor',
      method: 'PATCH',
      url: '/notes/1',
      body: { title: x(70_000) },
      ...refused('title', 'at most 65536 characters'),
      check: async (res, t) => {
        expect(res.body.errors[0].field).toBe('title');
        expect((await t.request('GET', '/notes/1')).body.title).toBe(x(65_536));
      },
    },
    {
      name: 'a document within maxDocumentSize is kept',
      as: 'editor',
      method: 'POST',
      url: '/cards',
      body: { front: x(4_000), back: x(4_000) },
      status: 201,
      events: { create: 1 },
      check: (res) => expect(res.body.doc).toMatchObject({ front: x(4_000), back: x(4_000) }),
    },
    {
      name: 'a document over maxDocumentSize is a 400 naming its largest field',
      as: 'editor',
      method: 'POST',
      url: '/cards',
      body: { front: x(4_000), back: x(7_000) },
      ...refused('back', 'at most 10000 bytes'),
    },
    {
      name: 'an update that grows a document past it is a 400',
      as: 'editor',
      method: 'PATCH',
      url: '/cards/1',
      body: { back: x(7_000) },
      ...refused('back', 'at most 10000 bytes'),
      check: async (res, t) => {
        expect(res.body.errors[0].field).toBe('back');
        expect((await t.request('GET', '/cards/1')).body.back).toBe(x(4_000));
      },
    },
    {
      name: 'nothing refused was stored',
      method: 'GET',
      url: '/notes?limit=100',
      setup: async (t) => {
        notesBefore = (await t.request('GET', '/notes?limit=100')).body.totalDocs;
        const editor = await t.session('editor');
        for (const [method, url, body] of refusedWrites)
          expect((await t.request(method, url, { token: editor.token, body })).status).toBe(400);
      },
      status: 200,
      check: (res) => {
        expect(res.body.totalDocs).toBe(notesBefore);
        expect(res.body.docs.find((d: { id: number }) => d.id === 1).title.length).toBe(65_536);
      },
    },
  ],
  { seed },
);
