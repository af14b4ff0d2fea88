/**
 * A copy of a document's plain data (src/fields/plain-data.ts) is what `structuredClone` makes of it: equal,
 * sharing nothing with the original, and anything that is not plain data inside copied as `structuredClone`
 * copies it.
 */
import { expect, test } from 'bun:test';
import { copyPlainData } from '../../src/fields/plain-data.ts';

const documents: unknown[] = [
  null,
  'text',
  42,
  { id: 1, email: 'ed@example.com', role: 'editor', active: true, createdAt: '2026-11-30T00:00:00.000Z' },
  { nested: { tags: ['a', 'b'], deep: [{ x: 1 }, { y: [null, true, 2.5] }], missing: undefined }, empty: {} },
  [1, [2, [3, { four: 4 }]]],
  Object.assign(Object.create(null), { bare: { yes: 1 } }),
];

test('equals structuredClone for plain data, and shares nothing with the original', () => {
  for (const value of documents) {
    const copy = copyPlainData(value);
    expect(copy).toEqual(structuredClone(value));
    if (value && typeof value === 'object') expect(copy).not.toBe(value);
  }
  const user = { id: 1, roles: ['admin'], prefs: { theme: 'dark' } };
  const copy = copyPlainData(user);
  copy.roles.push('editor');
  copy.prefs.theme = 'light';
  expect(user).toEqual({ id: 1, roles: ['admin'], prefs: { theme: 'dark' } });
});

test('what is not plain data is copied as structuredClone copies it', () => {
  const at = new Date('2026-11-30T12:00:00.000Z');
  const value = { at, tags: new Set(['a']), list: [new Map([['k', 1]])] };
  const copy = copyPlainData(value);
  expect(copy).toEqual(structuredClone(value));
  expect(copy.at).toBeInstanceOf(Date);
  expect(copy.at).not.toBe(at);
  expect(copy.tags).not.toBe(value.tags);
});

test('a cycle is copied as structuredClone copies it', () => {
  const node: Record<string, unknown> = { name: 'loop' };
  node.self = node;
  const copy = copyPlainData(node);
  expect(copy).not.toBe(node);
  expect(copy.self).toBe(copy);
});
