// Runs once (on the SQLite pass): parses query strings, no database.
/**
 * src/query/request-options.ts parseQuery: plain pairs (`depth=0&draft=true`) are read without qs, and
 * must come out exactly as qs reads them, key order included; anything else is qs's to read.
 */
import { expect, test } from 'bun:test';
import qs from 'qs';
import { parseQuery } from '../../src/query/request-options.ts';

const asQs = (search: string) =>
  qs.parse(search.startsWith('?') ? search.slice(1) : search, {
    depth: 12,
    arrayLimit: 200,
    parameterLimit: 2000,
    allowDots: false,
  });

const strings = [
  'depth=0',
  '?depth=0',
  'depth=0&draft=true&locale=en',
  'depth=',
  'sort=-createdAt&limit=20&page=2',
  'select=title,body&fallback-locale=false',
  'b=1&a=2&10=x&2=y',
  'depth=0&depth=1',
  'toString=1',
  'constructor=1&depth=0',
  '__proto__=1',
  'hasOwnProperty=x',
  'a.b=1',
  'where[status][equals]=published&depth=0',
  'title=a+b',
  'title=%41',
  'depth',
  'depth=0&',
  '&depth=0',
  'a=1&&b=2',
  'a=1=2',
  Array.from({ length: 16 }, (_, i) => `k${i}=${i}`).join('&'),
  Array.from({ length: 17 }, (_, i) => `k${i}=${i}`).join('&'),
  'x'.repeat(300) + '=1',
];

test('every query string reads as qs reads it, key order included', () => {
  for (const search of strings) {
    const parsed = parseQuery(search);
    expect({ search, parsed }).toEqual({ search, parsed: asQs(search) });
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(asQs(search)));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.getPrototypeOf(asQs(search)));
  }
});

test('each call answers an object of its own', () => {
  const a = parseQuery('depth=0');
  a.depth = '3';
  expect(parseQuery('depth=0')).toEqual({ depth: '0' });
});
