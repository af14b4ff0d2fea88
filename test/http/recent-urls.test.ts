// Runs once (on the SQLite pass): remembering per URL involves no database.
/**
 * What is worked out from a URL is remembered for recent URLs, long ones too (a GraphQL query sent with
 * GET), within bounds on the entries, on one URL's length and on the characters held in all.
 */
import { describe, expect, test } from 'bun:test';
import { rememberedPerURL } from '../../src/http/recent-urls.ts';

function counted() {
  const calls: string[] = [];
  const remembered = rememberedPerURL((url) => {
    calls.push(url);
    return `key of ${url}`;
  });
  return { calls, remembered };
}

describe('work remembered per URL', () => {
  test('a URL asked again is not worked out again, a long GraphQL GET among them', () => {
    const { calls, remembered } = counted();
    const long = `http://x/api/graphql?query=${encodeURIComponent('{ Posts { docs { id title } } } '.repeat(60))}`;
    expect(long.length).toBeGreaterThan(2000);
    for (let i = 0; i < 3; i++) {
      expect(remembered('http://x/api/posts?limit=1')).toBe('key of http://x/api/posts?limit=1');
      expect(remembered(long)).toBe(`key of ${long}`);
    }
    expect(calls).toEqual(['http://x/api/posts?limit=1', long]);
  });

  test('a URL past the length bound is worked out every time', () => {
    const { calls, remembered } = counted();
    const huge = `http://x/api/posts?where=${'a'.repeat(10_000)}`;
    remembered(huge);
    remembered(huge);
    expect(calls).toHaveLength(2);
  });

  test('the characters held are bounded: past them everything is dropped', () => {
    const { calls, remembered } = counted();
    const url = (i: number) => `http://x/api/graphql?query=${String(i).padStart(8000, '0')}`;
    // 8 kB URLs with 8 kB results: about 64 fit in a million characters, far fewer than the entry bound.
    for (let i = 0; i < 70; i++) remembered(url(i));
    remembered(url(0));
    remembered(url(69));
    expect(calls.filter((c) => c === url(0))).toHaveLength(2);
    expect(calls.filter((c) => c === url(69))).toHaveLength(1);
  });
});
