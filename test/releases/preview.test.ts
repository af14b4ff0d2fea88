/**
 * Previewing releases (docs/releases.md): `release=a,b` on lists, counts, reads by id and globals answers as
 * if those releases were published on top of the live data, a later release winning; signed-in callers
 * under their read rules, or a token from `POST /releases/:id/preview` that opens that one release for an
 * hour, acting as its issuer; never kept by the response cache.
 */
import { expect } from 'bun:test';
import { runScenarios, type TestServer } from '../harness.ts';
import { cacheFigures } from '../../src/http/cached-read.ts';
import { releasesConfig } from '../fixtures/releases-config.ts';

const as = async (t: TestServer, role: string) => (await t.session(role)).token;
async function ok(t: TestServer, role: string, method: string, url: string, body?: unknown) {
  const res = await t.request(method, url, { token: await as(t, role), body });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res.body;
}
const titles = (res: { body: any }) => res.body.docs.map((d: any) => `${d.id}:${d.title}:${d.status}`);
const tokens: Record<string, string> = {};
/** A preview token of release `id`, asked for by the editor. */
const tokenOf = async (t: TestServer, id: number) => (await ok(t, 'editor', 'POST', `/releases/${id}/preview`)).token;
const remember = (name: string, id: number) => async (t: TestServer) => {
  tokens[name] = await tokenOf(t, id);
};
const LIST = '/posts?sort=id&where[status][equals]=published';

runScenarios(
  'releases: preview',
  releasesConfig,
  [
    {
      name: 'a list with one release shows its pinned versions as published',
      as: 'editor',
      method: 'GET',
      url: `${LIST}&release=1`,
      status: 200,
      contains: ['"totalDocs":3'],
      check: (res) => {
        expect(titles(res)).toEqual(['1:Draft one:published', '2:Live two:published', '3:New three:published']);
        expect(res.headers.get('cache-control')).toBe('private, no-store');
      },
    },
    {
      name: 'stacked releases apply in the order given: the later one wins, unpublish included',
      as: 'editor',
      method: 'GET',
      url: `${LIST}&release=1,2`,
      status: 200,
      check: (res) => expect(titles(res)).toEqual(['1:Draft one, later:published', '3:New three:published']),
    },
    {
      name: 'the other order lets the first release win for the document in both',
      as: 'editor',
      method: 'GET',
      url: `${LIST}&release=2,1`,
      status: 200,
      check: (res) => expect(titles(res)).toEqual(['1:Draft one:published', '3:New three:published']),
    },
    {
      name: 'the live list is unchanged',
      as: 'editor',
      method: 'GET',
      url: LIST,
      status: 200,
      check: (res) => expect(titles(res)).toEqual(['1:Live one:published', '2:Live two:published']),
    },
    {
      name: 'where and sort run on the previewed content',
      as: 'editor',
      method: 'GET',
      url: '/posts?release=1,2&where[title][like]=later&sort=-title',
      status: 200,
      check: (res) => expect(titles(res)).toEqual(['1:Draft one, later:published']),
    },
    {
      name: 'a count with releases counts the previewed documents',
      as: 'editor',
      method: 'GET',
      url: '/posts/count?release=1&where[status][equals]=published',
      status: 200,
      contains: ['{"totalDocs":3}'],
    },
    {
      name: 'a read by id with stacked releases answers the winning version',
      as: 'editor',
      method: 'GET',
      url: '/posts/1?release=1,2',
      status: 200,
      contains: ['"title":"Draft one, later"', '"status":"published"'],
    },
    {
      name: 'an unpublish item reads as a draft',
      as: 'editor',
      method: 'GET',
      url: '/posts/2?release=2',
      status: 200,
      contains: ['"title":"Live two"', '"status":"draft"'],
    },
    {
      name: 'a global with a release answers its pinned version',
      as: 'editor',
      method: 'GET',
      url: '/globals/settings?release=1',
      status: 200,
      contains: ['"siteName":"Site B"', '"status":"published"'],
      check: (res) => expect(res.headers.get('cache-control')).toBe('private, no-store'),
    },
    {
      name: 'nobody signed in and no token: 401',
      method: 'GET',
      url: '/posts?release=1',
      status: 401,
      contains: ['"errors"'],
    },
    {
      name: 'an unknown release is a 404',
      as: 'editor',
      method: 'GET',
      url: '/posts?release=1,99',
      status: 404,
      contains: ['Release 99 not found'],
    },
    {
      name: 'a release list that is not ids is a 400',
      as: 'editor',
      method: 'GET',
      url: '/posts?release=1,x',
      status: 400,
      contains: ['"field":"release"'],
    },
    {
      name: 'an API key reads releases only where its scopes let it read',
      setup: async (t) => {
        const editor = await t.session('editor');
        const res = await ok(t, 'admin', 'POST', '/api-keys', {
          name: 'k',
          user: editor.user.id,
          scopes: ['pages:read'],
        });
        tokens.key = res.doc.key;
      },
      method: 'GET',
      url: '/posts?release=1',
      headers: {
        get authorization() {
          return `Bearer ${tokens.key}`;
        },
      },
      status: 403,
      contains: ['"errors"'],
    },
    {
      name: 'a preview token is given for an hour',
      as: 'editor',
      method: 'POST',
      url: '/releases/1/preview',
      status: 200,
      events: { '*': 0 },
      contains: ['"token":"', '"expiresAt":"'],
      check: (res, t) => {
        expect(Date.parse(res.body.expiresAt)).toBe(t.clock.now() + 3600_000);
        expect(res.headers.get('cache-control')).toBe('no-store');
      },
    },
    {
      name: 'a preview token needs a signed-in caller',
      method: 'POST',
      url: '/releases/1/preview',
      status: 401,
      contains: ['"errors"'],
    },
    {
      name: 'a preview token of an unknown release: 404',
      as: 'editor',
      method: 'POST',
      url: '/releases/99/preview',
      status: 404,
      contains: ['"errors"'],
    },
    {
      name: 'with the token, nobody signed in reads the release, never kept',
      setup: remember('one', 1),
      method: 'GET',
      url: () => `${LIST}&release=1&preview=${tokens.one}`,
      status: 200,
      check: async (res, t) => {
        expect(titles(res)).toEqual(['1:Draft one:published', '2:Live two:published', '3:New three:published']);
        expect(res.headers.get('cache-control')).toBe('private, no-store');
        const again = await t.request('GET', `${LIST}&release=1&preview=${tokens.one}`);
        expect(titles(again)).toEqual(titles(res));
        expect(cacheFigures(t.cms)!.entries).toBe(0);
      },
    },
    {
      name: 'with the token, a read by id and a global answer the release',
      setup: remember('one', 1),
      method: 'GET',
      url: () => `/posts/3?release=1&preview=${tokens.one}`,
      status: 200,
      contains: ['"title":"New three"', '"status":"published"'],
      check: async (_res, t) => {
        const global = await t.request('GET', `/globals/settings?release=1&preview=${tokens.one}`);
        expect(global.body).toMatchObject({ siteName: 'Site B', status: 'published' });
        const count = await t.request('GET', `/posts/count?release=1&preview=${tokens.one}`);
        expect(count.body).toEqual({ totalDocs: 3 });
      },
    },
    {
      name: 'a token opens its own release only',
      setup: remember('one', 1),
      method: 'GET',
      url: () => `/posts?release=2&preview=${tokens.one}`,
      status: 403,
      contains: ['"errors"'],
    },
    {
      name: 'a token opens one release, never a stack',
      setup: remember('one', 1),
      method: 'GET',
      url: () => `/posts?release=1,2&preview=${tokens.one}`,
      status: 403,
      contains: ['one release'],
    },
    {
      name: 'a release token is no document preview token',
      setup: remember('one', 1),
      method: 'GET',
      url: () => `/posts/1?preview=${tokens.one}`,
      status: 403,
      contains: ['"errors"'],
    },
    {
      name: 'a document preview token does not open a release',
      setup: async (t) => {
        const res = await ok(t, 'editor', 'POST', '/posts/1/preview', {});
        tokens.document = new URL(res.url).searchParams.get('preview')!;
      },
      method: 'GET',
      url: () => `/posts/1?release=1&preview=${tokens.document}`,
      status: 403,
      contains: ['"errors"'],
    },
    {
      name: "a document's live-preview URL carries the release and its token",
      as: 'editor',
      method: 'POST',
      url: '/posts/1/preview?release=2',
      body: {},
      status: 200,
      events: { '*': 0 },
      check: async (res, t) => {
        const url = new URL(res.body.url);
        expect(url.searchParams.get('release')).toBe('2');
        const read = await t.request('GET', `/posts/1${url.search}`);
        expect(read.body).toMatchObject({ title: 'Draft one, later', status: 'published' });
        const other = await t.request('GET', `/posts/1?release=1&preview=${url.searchParams.get('preview')}`);
        expect(other.status).toBe(403);
      },
    },
    {
      name: 'a live-preview URL for an unknown release: 404',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/preview?release=99',
      body: {},
      status: 404,
      contains: ['"errors"'],
    },
    {
      name: 'a token expires after an hour',
      setup: async (t) => {
        tokens.one = await tokenOf(t, 1);
        t.clock.advance(3600_000);
      },
      method: 'GET',
      url: () => `/posts?release=1&preview=${tokens.one}`,
      status: 403,
      contains: ['expired'],
    },
    {
      name: 'a token of a user since deactivated opens nothing',
      setup: async (t) => {
        tokens.one = await tokenOf(t, 1);
        const editor = await t.session('editor');
        await ok(t, 'admin', 'PATCH', `/users/${editor.user.id}`, { active: false });
      },
      method: 'GET',
      url: () => `/posts?release=1&preview=${tokens.one}`,
      status: 403,
      contains: ['"errors"'],
    },
    {
      name: 'a published release adds nothing: what it published is live already',
      setup: async (t) => {
        await ok(t, 'editor', 'POST', '/releases/1/publish');
        await ok(t, 'editor', 'PATCH', '/posts/3', { title: 'Edited after', status: 'published' });
      },
      as: 'editor',
      method: 'GET',
      url: '/posts/3?release=1',
      status: 200,
      contains: ['"title":"Edited after"'],
    },
    {
      name: 'a live read kept by the cache is not served for a release, nor replaced by it',
      setup: async (t) => {
        await t.request('GET', '/globals/settings');
      },
      as: 'editor',
      method: 'GET',
      url: '/globals/settings?release=1',
      status: 200,
      contains: ['"siteName":"Site B"'],
      check: async (_res, t) => {
        expect((await t.request('GET', '/globals/settings')).body.siteName).toBe('Site A');
        expect(cacheFigures(t.cms)!.entries).toBe(1);
      },
    },
  ],
  { seed },
);

/**
 * Post 1: live "Live one", pending "Draft one" (release 1) then "Draft one, later" (release 2). Post 2 live
 * (release 2 unpublishes it). Post 3 only ever a draft (release 1 publishes it). The global: live "Site A",
 * draft "Site B" (release 1).
 */
async function seed(t: TestServer) {
  await t.session('admin');
  await ok(t, 'editor', 'POST', '/posts', { title: 'Live one', slug: 'one', status: 'published' });
  await ok(t, 'editor', 'PATCH', '/posts/1?draft=true', { title: 'Draft one' });
  await ok(t, 'editor', 'POST', '/posts', { title: 'Live two', slug: 'two', status: 'published' });
  await ok(t, 'editor', 'POST', '/posts?draft=true', { title: 'New three', slug: 'three' });
  await ok(t, 'editor', 'POST', '/globals/settings', { siteName: 'Site A', status: 'published' });
  await ok(t, 'editor', 'POST', '/globals/settings?draft=true', { siteName: 'Site B' });
  await ok(t, 'editor', 'POST', '/releases', { title: 'Launch' });
  for (const item of [
    { collection: 'posts', id: 1, action: 'publish' },
    { collection: 'posts', id: 3, action: 'publish' },
    { global: 'settings', action: 'publish' },
  ])
    await ok(t, 'editor', 'POST', '/releases/1/items', item);
  await ok(t, 'editor', 'PATCH', '/posts/1?draft=true', { title: 'Draft one, later' });
  await ok(t, 'editor', 'POST', '/releases', { title: 'Later' });
  await ok(t, 'editor', 'POST', '/releases/2/items', { collection: 'posts', id: 1, action: 'publish' });
  await ok(t, 'editor', 'POST', '/releases/2/items', { collection: 'posts', id: 2, action: 'unpublish' });
}
