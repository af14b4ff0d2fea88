/** Live preview (docs/drafts-and-versions.md): unsaved values over the latest draft, nothing saved, `{ doc, url }`; preview tokens read the current draft without login. */
import { expect } from 'bun:test';
import { runScenarios, type TestServer } from '../harness.ts';
import { draftsConfig } from '../fixtures/drafts-config.ts';

/** Preview tokens the seed gets from preview answers (the table is built before the server starts). */
const tokens: Record<string, string> = {};
const tokenOf = (url: string) => new URL(url).searchParams.get('preview')!;
/** Changes the signature's first character: every bit of it counts (the last base64url character carries spare bits). */
const tamperSignature = (token: string) => {
  const [payload, signature] = token.split('.');
  return `${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
};
/** A request by the table's editor, for what a row needs before its own. */
const asEditor = async (t: TestServer, method: string, url: string, body: unknown) => {
  const res = await t.request(method, url, { token: (await t.session('editor')).token, body });
  if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
};
const postCount = async (t: TestServer) => (await t.cms.store.get<{ n: number }>('SELECT count(*) AS n FROM posts'))!.n;

runScenarios(
  'live preview',
  draftsConfig,
  [
    {
      name: 'preview merges the unsaved values over the pending draft and saves nothing',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/preview',
      body: { title: 'Unsaved' },
      status: 200,
      events: {},
      check: (res, t) => {
        expect(Object.keys(res.body).sort()).toEqual(['doc', 'url']);
        expect(res.body.doc).toMatchObject({ id: 1, title: 'Unsaved', body: 'draft body', status: 'draft' });
        expect(res.body.doc.secret).toBeUndefined();
        expect(res.body.url.startsWith(`${t.api}/posts/1?preview=`)).toBe(true);
      },
    },
    {
      name: 'the live document is unchanged',
      setup: (t) => asEditor(t, 'POST', '/posts/1/preview', { title: 'Unsaved' }),
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"Live"'],
      notContains: ['Unsaved', 'draft body'],
    },
    {
      name: 'the pending draft is unchanged',
      setup: (t) => asEditor(t, 'POST', '/posts/1/preview', { title: 'Unsaved' }),
      as: 'editor',
      method: 'GET',
      url: '/posts/1?draft=true',
      status: 200,
      contains: ['"title":"Live"', '"body":"draft body"'],
      notContains: ['Unsaved'],
    },
    {
      name: 'a preview token reads the current draft without login',
      method: 'GET',
      url: () => `/posts/1?preview=${tokens.post1}`,
      status: 200,
      contains: ['"body":"draft body"', '"status":"draft"'],
      notContains: ['Unsaved', '"secret"'],
    },
    {
      name: 'a tampered token is a 403',
      method: 'GET',
      url: () => `/posts/1?preview=${tamperSignature(tokens.post1)}`,
      status: 403,
      contains: ['"errors"', 'The preview token is not valid for this document or has expired.'],
    },
    {
      name: 'a tampered payload is a 403',
      method: 'GET',
      url: () =>
        `/posts/1?preview=${Buffer.from('{"k":"collection","s":"posts","id":1,"exp":99999999999999}').toString('base64url')}.${tokens.post1.split('.')[1]}`,
      status: 403,
      contains: ['"errors"', 'The preview token is not valid for this document or has expired.'],
      events: { '*': 0 },
    },
    {
      name: 'a malformed token is a 403',
      method: 'GET',
      url: '/posts/1?preview=nonsense',
      status: 403,
      contains: ['"errors"', 'The preview token is not valid for this document or has expired.'],
      events: { '*': 0 },
    },
    {
      name: "another document's token is a 403",
      method: 'GET',
      url: () => `/posts/2?preview=${tokens.post1}`,
      status: 403,
      contains: ['"errors"', 'The preview token is not valid for this document or has expired.'],
      events: { '*': 0 },
    },
    {
      name: 'a bad token is a 403 for a logged-in user too',
      as: 'editor',
      method: 'GET',
      url: '/posts/1?preview=nonsense',
      status: 403,
      contains: ['"errors"', 'The preview token is not valid for this document or has expired.'],
      events: { '*': 0 },
    },
    {
      name: 'preview of a new document starts from the defaults and saves nothing',
      as: 'editor',
      method: 'POST',
      url: '/posts/preview',
      body: { title: 'Brand new' },
      status: 200,
      events: {},
      setup: async (t) => {
        tokens.count = String(await postCount(t));
      },
      check: async (res, t) => {
        expect(res.body.doc).toMatchObject({ id: null, title: 'Brand new', views: 0, status: 'draft' });
        expect(res.body.url.startsWith(`${t.api}/posts?preview=`)).toBe(true);
        expect(String(await postCount(t))).toBe(tokens.count);
      },
    },
    {
      name: "a new document's token reads no existing document",
      method: 'GET',
      url: () => `/posts/1?preview=${tokens.fresh}`,
      status: 403,
      contains: ['"errors"', 'The preview token is not valid for this document or has expired.'],
      events: { '*': 0 },
    },
    {
      name: 'preview of a new document without login is a 401',
      method: 'POST',
      url: '/posts/preview',
      body: { title: 'x' },
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'preview of a new document without create access is a 403',
      as: 'viewer',
      method: 'POST',
      url: '/posts/preview',
      body: { title: 'x' },
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'preview without login is a 401',
      method: 'POST',
      url: '/posts/1/preview',
      body: { title: 'x' },
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'preview without update access is a 403',
      as: 'viewer',
      method: 'POST',
      url: '/posts/1/preview',
      body: { title: 'x' },
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'preview of a missing document is a 404',
      as: 'editor',
      method: 'POST',
      url: '/posts/999/preview',
      body: { title: 'x' },
      status: 404,
      contains: ['"errors"', 'Document not found.'],
      events: { '*': 0 },
    },
    {
      name: 'a body that is not an object is a 400',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/preview',
      body: [1],
      status: 400,
      contains: ['"field":"data"', 'The unsaved values must be a JSON object.'],
      events: { '*': 0 },
    },
    {
      name: 'preview answers 405 to GET',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/preview',
      status: 405,
      contains: ['"errors"', 'Method Not Allowed'],
      events: { '*': 0 },
    },
    {
      name: 'livePreview.url gives the URL, with the token added to its query',
      as: 'editor',
      method: 'POST',
      url: '/pages/1/preview',
      body: { title: 'New title' },
      status: 200,
      events: { '*': 0 },
      check: (res) => {
        expect(res.body.doc).toMatchObject({ title: 'New title', slug: 'hello' });
        expect(res.body.url).toMatch(/^https:\/\/site\.example\/pages\/hello\?lang=none&preview=[^#]+#top$/);
      },
    },
    {
      name: 'a collection without drafts previews its live document',
      method: 'GET',
      url: () => `/pages/1?preview=${tokens.page}`,
      status: 200,
      contains: ['"title":"Page"'],
    },
    {
      name: 'preview of a global',
      as: 'editor',
      method: 'POST',
      url: '/globals/settings/preview',
      body: { siteName: 'Previewed' },
      status: 200,
      events: {},
      check: (res, t) => {
        expect(res.body.doc).toMatchObject({ siteName: 'Previewed', status: 'published' });
        expect(res.body.url.startsWith(`${t.api}/globals/settings?preview=`)).toBe(true);
      },
    },
    {
      name: 'the global is unchanged',
      setup: (t) => asEditor(t, 'POST', '/globals/settings/preview', { siteName: 'Previewed' }),
      method: 'GET',
      url: '/globals/settings',
      status: 200,
      contains: ['"siteName":"Site"'],
    },
    {
      name: 'a global draft',
      as: 'editor',
      method: 'POST',
      url: '/globals/settings?draft=true',
      body: { siteName: 'Drafted' },
      status: 200,
      contains: ['"siteName":"Drafted"', '"status":"draft"', 'Global saved.'],
      events: { draft: 1 },
    },
    {
      name: "the global's token reads its current draft without login",
      setup: (t) => asEditor(t, 'POST', '/globals/settings?draft=true', { siteName: 'Drafted' }),
      method: 'GET',
      url: () => `/globals/settings?preview=${tokens.global}`,
      status: 200,
      contains: ['"siteName":"Drafted"'],
    },
    {
      name: "a global's token does not read a document",
      method: 'GET',
      url: () => `/posts/1?preview=${tokens.global}`,
      status: 403,
      contains: ['"errors"', 'The preview token is not valid for this document or has expired.'],
      events: { '*': 0 },
    },
    {
      name: "a document's token does not read a global",
      method: 'GET',
      url: () => `/globals/settings?preview=${tokens.post1}`,
      status: 403,
      contains: ['"errors"', 'The preview token is not valid for this document or has expired.'],
      events: { '*': 0 },
    },
    {
      name: 'global preview without update access is a 403',
      as: 'viewer',
      method: 'POST',
      url: '/globals/settings/preview',
      body: {},
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'a token still works 59 minutes later',
      method: 'GET',
      url: () => `/posts/1?preview=${tokens.post1}`,
      status: 200,
      contains: ['"id":1', '"body":"draft body"', '"status":"draft"'],
      setup: (t) => t.clock.advance(59 * 60_000),
    },
    {
      name: 'an expired token (after one hour) is a 403',
      method: 'GET',
      url: () => `/posts/1?preview=${tokens.post1}`,
      status: 403,
      contains: ['"errors"', 'The preview token is not valid for this document or has expired.'],
      setup: (t) => t.clock.advance(61 * 60_000),
    },
  ],
  {
    async seed(t) {
      const { token } = await t.session('editor');
      const call = (method: string, url: string, body?: unknown) => t.request(method, url, { token, body });
      await call('POST', '/posts', { title: 'Live', status: 'published', secret: 'do-not-show' });
      await call('PATCH', '/posts/1?draft=true', { body: 'draft body' });
      await call('POST', '/posts', { title: 'Other', status: 'published' });
      await call('POST', '/pages', { title: 'Page', slug: 'hello' });
      await call('POST', '/globals/settings', { siteName: 'Site', status: 'published' });
      // The tokens the rows read with, each from a preview answer; they expire an hour after the seed's time.
      tokens.post1 = tokenOf((await call('POST', '/posts/1/preview', { title: 'Unsaved' })).body.url);
      tokens.fresh = tokenOf((await call('POST', '/posts/preview', { title: 'Brand new' })).body.url);
      tokens.page = tokenOf((await call('POST', '/pages/1/preview', { title: 'New title' })).body.url);
      tokens.global = tokenOf((await call('POST', '/globals/settings/preview', { siteName: 'Previewed' })).body.url);
    },
  },
);
