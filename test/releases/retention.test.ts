/**
 * Version retention and releases (docs/releases.md): pruning the oldest versions of a document never drops
 * a version an unpublished release has pinned, nor the one a published release would put back on revert.
 */
import { expect } from 'bun:test';
import { runScenarios, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config = (): UserConfig => ({
  releases: true,
  collections: [
    {
      slug: 'posts',
      versions: { drafts: true, maxPerDoc: 2 },
      access: { read: () => true },
      fields: [{ name: 'title', type: 'text', required: true }],
    },
  ],
});

async function ok(t: TestServer, method: string, url: string, body?: unknown) {
  const res = await t.request(method, url, { token: (await t.session('admin')).token, body });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res.body;
}
const saves = async (t: TestServer, titles: string[], query: string) => {
  for (const title of titles) await ok(t, 'PATCH', `/posts/1${query}`, { title });
};
const liveTitle = async (t: TestServer) => (await t.request('GET', '/posts/1')).body.title;

runScenarios(
  'releases: version retention',
  config,
  [
    {
      name: 'drafts saved after an item was pinned do not prune its version',
      setup: (t) => saves(t, ['B', 'C', 'D'], '?draft=true'),
      as: 'admin',
      method: 'POST',
      url: '/releases/1/publish',
      status: 200,
      events: 'any',
      contains: ['"status":"published"'],
      check: async (_res, t) => expect(await liveTitle(t)).toBe('A'),
    },
    {
      name: 'saves after a publish do not prune what a revert puts back',
      setup: async (t) => {
        await ok(t, 'POST', '/releases/1/publish');
        await saves(t, ['E', 'F', 'G'], '');
        await ok(t, 'POST', '/releases/1/revert');
      },
      as: 'admin',
      method: 'POST',
      url: '/releases/2/publish',
      status: 200,
      events: 'any',
      contains: ['"status":"published"'],
      check: async (_res, t) => expect(await liveTitle(t)).toBe('Live'),
    },
  ],
  async (t) => {
    await ok(t, 'POST', '/posts', { title: 'Live', status: 'published' });
    await ok(t, 'PATCH', '/posts/1?draft=true', { title: 'A' });
    await ok(t, 'POST', '/releases', { title: 'Launch' });
    await ok(t, 'POST', '/releases/1/items', { collection: 'posts', id: 1, action: 'publish' });
  },
);
