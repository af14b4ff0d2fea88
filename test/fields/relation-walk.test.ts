// Runs once (on the SQLite pass): walks values in memory against a sanitized config; no database.
/**
 * The relation walk (src/fields/walk-values.ts): every id a document points at, in order, with where it
 * sits, in groups, arrays, block rows, localized values, polymorphic lists and rich text; the same slots
 * without their paths when the caller reads none; and population's walk, the same ids and places told
 * without a slot object each.
 */
import { describe, expect, test } from 'bun:test';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { visitRelationIds, visitRelations, type RelationSlot } from '../../src/fields/walk-values.ts';
import { relationSlots } from '../../src/fields/relationship-values.ts';

const userConfig: UserConfig = {
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  collections: [
    { slug: 'authors', fields: [{ name: 'name', type: 'text' }] },
    {
      slug: 'pages',
      fields: [
        { name: 'lead', type: 'relationship', relationTo: 'authors' },
        { name: 'translated', type: 'relationship', relationTo: 'authors', localized: true },
        { name: 'either', type: 'relationship', relationTo: ['authors', 'pages'], hasMany: true },
        {
          name: 'meta',
          type: 'group',
          fields: [{ name: 'editors', type: 'relationship', relationTo: 'authors', hasMany: true }],
        },
        {
          name: 'layout',
          type: 'blocks',
          blocks: [
            { slug: 'cards', fields: [{ name: 'first', type: 'relationship', relationTo: 'authors' }] },
            { slug: 'quote', fields: [{ name: 'first', type: 'number' }] },
          ],
        },
        { name: 'body', type: 'richText' },
      ],
    },
  ],
};
const config = sanitizeConfig(userConfig, { configPath: null, rootDir: '/tmp' });
const pages = config.collectionsBySlug.get('pages')!;

const stored = () => ({
  id: 1,
  lead: 3,
  translated: { en: 4, de: 5 },
  either: [{ relationTo: 'pages', value: 2 }, 'junk', { relationTo: 'authors', value: 6 }],
  meta: { editors: [7, 'x', 8] },
  layout: [
    { id: 'a', blockType: 'cards', first: 9 },
    { id: 'b', blockType: 'gone', first: 10 },
    { id: 'c', blockType: 'cards', first: null },
    { id: 'q', blockType: 'quote', first: 14 },
    { id: 'd', blockType: 'cards', first: 11 },
  ],
  body: {
    root: {
      type: 'root',
      children: [
        { type: 'relationship', relationTo: 'authors', value: 12 },
        { type: 'link', fields: { linkType: 'internal', doc: { relationTo: 'pages', value: 13 } }, children: [] },
      ],
    },
  },
});

function walk(doc: Record<string, unknown>, paths?: boolean) {
  const slots: RelationSlot[] = [];
  visitRelations(pages.fields, doc, (slot) => slots.push(slot), { keyedByLocale: true, paths });
  return slots;
}

describe('the relation walk', () => {
  test('tells every id in order, with its collection, path and holder', () => {
    const doc = stored();
    const slots = walk(doc);
    expect(slots.map((s) => [s.slug, s.id, s.path])).toEqual([
      ['authors', 3, 'lead'],
      ['authors', 4, 'translated.en'],
      ['authors', 5, 'translated.de'],
      ['pages', 2, 'either.0'],
      ['authors', 6, 'either.1'],
      ['authors', 7, 'meta.editors.0'],
      ['authors', 8, 'meta.editors.1'],
      ['authors', 9, 'layout.0.first'],
      ['authors', 11, 'layout.4.first'],
      ['authors', 12, 'body.root.children.0'],
      ['pages', 13, 'body.root.children.1.fields.doc'],
    ]);
    // Each slot names the place that holds its id, so population can put the document there.
    for (const slot of slots) expect(slot.holder[slot.key]).toBe(slot.id);
    expect(slots[7]!.siblingData).toBe(doc.layout[0]);
  });

  test('without paths, the same slots with empty paths', () => {
    const withPaths = walk(stored());
    const without = walk(stored(), false);
    expect(without.map((s) => s.path)).toEqual(withPaths.map(() => ''));
    expect(without.map(({ path: _, holder: __, siblingData: ___, ...rest }) => rest)).toEqual(
      withPaths.map(({ path: _, holder: __, siblingData: ___, ...rest }) => rest),
    );
  });

  test('the ids alone: the same collections, ids and places, in the same order', () => {
    const doc = stored();
    const told: [string, number, unknown, string | number][] = [];
    visitRelationIds(pages.fields, doc, (slug, id, holder, key) => told.push([slug, id, holder, key]), true);
    expect(told).toEqual(walk(doc, false).map((s) => [s.slug, s.id, s.holder, s.key]));
    for (const [, id, holder, key] of told) expect((holder as Record<string | number, unknown>)[key]).toBe(id);
    expect(told.length).toBe(11);
  });

  test('relationSlots lists one value’s references, skipping what is not an id', () => {
    const doc = stored();
    const either = pages.fields.find((f) => f.name === 'either')!;
    expect(relationSlots(either, doc, 'either').map((s) => [s.relationTo, s.id])).toEqual([
      ['pages', 2],
      ['authors', 6],
    ]);
    const editors = pages.fields.find((f) => f.name === 'meta')!.fields![0]!;
    expect(relationSlots(editors, doc.meta, 'editors').map((s) => [s.key, s.id])).toEqual([
      [0, 7],
      [2, 8],
    ]);
  });
});
