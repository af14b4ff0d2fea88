/**
 * Every text-like and structured value has a maximum size, and so has a whole document (docs/config.md,
 * "Size limits"): a megabyte title is a 400 naming the field, and nothing is stored.
 */
import { expect } from 'bun:test';
import { runScenarios, type Scenario } from './harness.ts';
import type { UserConfig } from '../src/config/types.ts';

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

runScenarios('size limits', config, [
  {
    name: 'a text value of 64 Ki characters is kept',
    as: 'editor',
    method: 'POST',
    url: '/notes',
    body: { title: x(65_536) },
    status: 201,
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
  },
  {
    name: 'a document within maxDocumentSize is kept',
    as: 'editor',
    method: 'POST',
    url: '/cards',
    body: { front: x(4_000), back: x(4_000) },
    status: 201,
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
  },
  {
    name: 'nothing refused was stored',
    method: 'GET',
    url: '/notes?limit=100',
    status: 200,
    check: (res) => {
      expect(res.body.totalDocs).toBe(1);
      expect(res.body.docs[0].title.length).toBe(65_536);
    },
  },
]);
