/**
 * Hidden fields and fields the reader may not read stay out of localized containers too: a localized
 * group, array or blocks field read in every locale (`locale=all`) is keyed by locale, and each locale's
 * rows must be stripped like a single locale's.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { localAPI } from '../../src/local.ts';
import { startTestServer, type TestServer } from '../harness.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
const adminsOnly = { read: ({ user }: { user: { role?: string } | null }) => user?.role === 'admin' };

describe('hidden and denied fields inside localized containers', () => {
  let t: TestServer;
  let id: number;

  beforeAll(async () => {
    t = await startTestServer({
      localization: { locales: ['en', 'de'], defaultLocale: 'en' },
      collections: [
        {
          slug: 'pages',
          access: open,
          fields: [
            { name: 'title', type: 'text' },
            {
              name: 'seo',
              type: 'group',
              localized: true,
              fields: [
                { name: 'title', type: 'text' },
                { name: 'secret', type: 'text', hidden: true },
              ],
            },
            {
              name: 'items',
              type: 'array',
              localized: true,
              fields: [
                { name: 'label', type: 'text' },
                { name: 'cost', type: 'number', hidden: true },
                { name: 'margin', type: 'number', access: adminsOnly },
              ],
            },
            {
              name: 'layout',
              type: 'blocks',
              localized: true,
              blocks: [
                {
                  slug: 'cta',
                  fields: [
                    { name: 'text', type: 'text' },
                    { name: 'note', type: 'text', hidden: true },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const api = localAPI(t.cms);
    const data = (word: string) => ({
      seo: { title: `${word} seo`, secret: `${word}-secret-seo` },
      items: [{ label: `${word} item`, cost: 41, margin: 7 }],
      layout: [{ blockType: 'cta', text: `${word} cta`, note: `${word}-secret-note` }],
    });
    const created = await api.create({ collection: 'pages', data: { title: 'Home', ...data('en') }, locale: 'en' });
    id = created.id as number;
    await api.update({ collection: 'pages', id, data: data('de'), locale: 'de' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  for (const query of ['locale=all', 'locale=de', 'locale=en']) {
    test(`a read with ${query} holds no hidden or denied value`, async () => {
      const read = await t.request('GET', `/pages/${id}?depth=0&${query}`);
      expect(read.status).toBe(200);
      expect(read.text).toContain('seo');
      expect(read.text).toContain('item');
      expect(read.text).not.toContain('secret');
      expect(read.text).not.toContain('"cost"');
      expect(read.text).not.toContain('"margin"');
      expect(read.text).not.toContain('"note"');
    });
  }

  test('a list in every locale holds none either', async () => {
    const list = await t.request('GET', '/pages?depth=0&locale=all');
    expect(list.status).toBe(200);
    expect(list.body.docs[0].items.de[0].label).toBe('de item');
    expect(list.text).not.toContain('secret');
    expect(list.text).not.toContain('"cost"');
  });
});
