/**
 * Polymorphic relationships, join fields and virtual fields leave the server as their stored shapes: an
 * export then import into an empty instance then export again gives the same bytes (polymorphic values as
 * `{ relationTo, value }` with ids, virtual values as read, no join values), and a webhook body carries the
 * polymorphic values with ids and neither joins nor virtual values.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import type { UserConfig } from '../../src/config/types.ts';
import { localAPI } from '../../src/local.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { exportImportExport, type RoundTrip } from '../support/round-trip.ts';
import { fingerprint } from '../support/media-fixtures.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
const readJSON = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

const config = (): UserConfig => ({
  collections: [
    {
      slug: 'categories',
      access: open,
      fields: [
        { name: 'title', type: 'text' },
        { name: 'links', type: 'join', collection: 'links', on: 'category' },
      ],
    },
    { slug: 'pages', access: open, fields: [{ name: 'title', type: 'text' }] },
    { slug: 'posts', access: open, fields: [{ name: 'title', type: 'text' }] },
    {
      slug: 'links',
      access: open,
      fields: [
        { name: 'label', type: 'text' },
        { name: 'category', type: 'relationship', relationTo: 'categories' },
        { name: 'target', type: 'relationship', relationTo: ['pages', 'posts'] },
        { name: 'related', type: 'relationship', relationTo: ['pages', 'posts'], hasMany: true },
        {
          name: 'shout',
          type: 'text',
          virtual: true,
          hooks: { afterRead: [({ data }) => String(data?.label ?? '').toUpperCase()] },
        },
      ],
    },
  ],
});

async function seed(t: TestServer): Promise<number> {
  const api = localAPI(t.cms);
  const category = await api.create({ collection: 'categories', data: { title: 'News' } });
  const page = await api.create({ collection: 'pages', data: { title: 'Home' } });
  const post = await api.create({ collection: 'posts', data: { title: 'Hello' } });
  const link = await api.create({
    collection: 'links',
    data: {
      label: 'first',
      category: category.id,
      target: { relationTo: 'posts', value: post.id },
      related: [
        { relationTo: 'pages', value: page.id },
        { relationTo: 'posts', value: post.id },
      ],
    },
  });
  return link.id as number;
}

describe('polymorphic values, joins and virtual fields through export and import', () => {
  let trip: RoundTrip;
  let linkId: number;

  beforeAll(async () => {
    trip = await exportImportExport(config, async (source) => {
      linkId = await seed(source);
    });
  });
  afterAll(async () => {
    await trip?.stop();
  });

  test('the second export is byte-identical to the first', () => {
    expect(fingerprint(trip.second)).toEqual(fingerprint(trip.first));
  });

  test('files hold polymorphic values as ids and virtual values as a reader sees them, and no join', () => {
    const link = readJSON(path.join(trip.first, 'links', `${linkId}.json`));
    expect(link.target).toEqual({ relationTo: 'posts', value: 1 });
    expect(link.related).toEqual([
      { relationTo: 'pages', value: 1 },
      { relationTo: 'posts', value: 1 },
    ]);
    // A static site reads the computed value from the file; import ignores it (it is never stored).
    expect(link.shout).toBe('FIRST');
    expect('links' in readJSON(path.join(trip.first, 'categories', '1.json'))).toBe(false);
  });

  test('the imported instance reads the same: populated values, the join, the virtual field', async () => {
    const original = await trip.source.request('GET', `/links/${linkId}?depth=1`);
    const copy = await trip.target.request('GET', `/links/${linkId}?depth=1`);
    expect(copy.status).toBe(200);
    expect(copy.body).toEqual(original.body);
    expect(copy.body.target.value.title).toBe('Hello');
    expect(copy.body.shout).toBe('FIRST');
    const category = await trip.target.request('GET', '/categories/1?depth=0');
    expect(category.body.links).toMatchObject({ docs: [linkId], totalDocs: 1, hasNextPage: false });
  });
});

describe('polymorphic values, joins and virtual fields in webhook bodies', () => {
  let t: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = startReceiver();
    t = await startTestServer({
      ...config(),
      webhooks: [{ url: receiver.url, collections: ['links', 'categories'], events: ['create'] }],
    });
  });
  afterAll(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  test('polymorphic values arrive as ids; neither the join nor the virtual value is sent', async () => {
    await seed(t);
    await flushWebhooks(t.cms);
    const requests = await receiver.waitFor(2);
    const link = requests.find((r) => r.json.collection === 'links')!.json.doc;
    expect(link.target).toEqual({ relationTo: 'posts', value: 1 });
    expect(link.related).toEqual([
      { relationTo: 'pages', value: 1 },
      { relationTo: 'posts', value: 1 },
    ]);
    expect('shout' in link).toBe(false);
    const category = requests.find((r) => r.json.collection === 'categories')!.json.doc;
    expect('links' in category).toBe(false);
  });
});
