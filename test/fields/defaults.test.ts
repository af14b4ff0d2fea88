/** `defaultValue` at any depth on create: in groups, array rows and block rows, and in a global never saved. */
import { expect } from 'bun:test';
import { runScenarios } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const open = { read: () => true, create: () => true, update: () => true };

const config: UserConfig = {
  collections: [
    {
      slug: 'products',
      access: open,
      fields: [
        { name: 'title', type: 'text', required: true },
        {
          name: 'seo',
          type: 'group',
          fields: [
            { name: 'robots', type: 'select', options: ['index', 'noindex'], defaultValue: 'index' },
            { name: 'description', type: 'text' },
          ],
        },
        { name: 'plain', type: 'group', fields: [{ name: 'note', type: 'text' }] },
        {
          name: 'variants',
          type: 'array',
          fields: [
            { name: 'sku', type: 'text', required: true },
            { name: 'stock', type: 'number', defaultValue: 1 },
          ],
        },
        {
          name: 'layout',
          type: 'blocks',
          blocks: [
            {
              slug: 'cta',
              fields: [
                { name: 'label', type: 'text' },
                { name: 'style', type: 'radio', options: ['primary', 'secondary'], defaultValue: 'primary' },
              ],
            },
          ],
        },
      ],
    },
  ],
  globals: [
    {
      slug: 'shop',
      access: { read: () => true },
      fields: [{ name: 'hours', type: 'group', fields: [{ name: 'open', type: 'text', defaultValue: '09:00' }] }],
    },
  ],
};

runScenarios('field defaults at any depth', config, [
  {
    name: 'a group left out of a create holds its fields’ defaults',
    method: 'POST',
    url: '/products',
    body: { title: 'A' },
    status: 201,
    events: { create: 1 },
    check: (res) => expect(res.body.doc.seo).toEqual({ robots: 'index' }),
  },
  {
    name: 'a group sent without a field gets that field’s default, and keeps what was sent',
    method: 'POST',
    url: '/products',
    body: { title: 'B', seo: { description: 'd' } },
    status: 201,
    events: { create: 1 },
    check: (res) => expect(res.body.doc.seo).toEqual({ robots: 'index', description: 'd' }),
  },
  {
    name: 'a value sent, null included, is kept over the default',
    method: 'POST',
    url: '/products',
    body: { title: 'C', seo: { robots: 'noindex' }, variants: [{ sku: 'x', stock: null }] },
    status: 201,
    events: { create: 1 },
    check: (res) => {
      expect(res.body.doc.seo.robots).toBe('noindex');
      expect(res.body.doc.variants[0].stock).toBeNull();
    },
  },
  {
    name: 'a group without defaults stays empty when left out',
    method: 'POST',
    url: '/products',
    body: { title: 'D' },
    status: 201,
    events: { create: 1 },
    check: (res) => expect(res.body.doc.plain).toBeNull(),
  },
  {
    name: 'every array row and every block row gets its fields’ defaults',
    method: 'POST',
    url: '/products',
    body: {
      title: 'E',
      variants: [{ sku: 'a' }, { sku: 'b', stock: 5 }],
      layout: [{ blockType: 'cta', label: 'Buy' }],
    },
    status: 201,
    events: { create: 1 },
    check: (res) => {
      expect(res.body.doc.variants.map((v: any) => [v.sku, v.stock])).toEqual([
        ['a', 1],
        ['b', 5],
      ]);
      expect(res.body.doc.layout[0]).toMatchObject({ blockType: 'cta', label: 'Buy', style: 'primary' });
    },
  },
  {
    name: 'a global never saved answers its nested defaults',
    method: 'GET',
    url: '/globals/shop',
    status: 200,
    check: (res) => expect(res.body.hours).toEqual({ open: '09:00' }),
  },
]);
