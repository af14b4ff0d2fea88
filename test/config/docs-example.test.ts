/**
 * The example config of docs/config.md, end to end over HTTP: drafts, localization, a hidden field, an access rule
 * returning a filter, hooks, live preview, a filtered and signed webhook, the cron secret.
 */
import { describe, expect, test, beforeAll, afterAll } from 'bun:test';
import { createHmac } from 'node:crypto';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';

describe('the example config', () => {
  let t: TestServer;
  let hook: Receiver;
  let editor: Session;
  beforeAll(async () => {
    hook = startReceiver();
    t = await startTestServer({
      serverURL: 'https://cms.example.com',
      localization: { locales: ['en', 'de'], defaultLocale: 'en' },
      webhooks: [
        { url: hook.url, events: ['publish'], collections: ['posts'], secret: 'whsec', headers: { 'x-team': 'site' } },
      ],
      jobs: { secret: 'cron-secret' },
      collections: [
        {
          slug: 'posts',
          drafts: true,
          fields: [
            { name: 'title', type: 'text', required: true, localized: true },
            { name: 'slug', type: 'text', unique: true, index: true },
            { name: 'body', type: 'markdown', localized: true },
            { name: 'views', type: 'number' },
            { name: 'cover', type: 'upload', relationTo: 'media' },
            { name: 'author', type: 'relationship', relationTo: 'users' },
            { name: 'internalNote', type: 'text', hidden: true },
          ],
          access: { read: ({ user }) => (user ? true : { status: { equals: 'published' } }) },
          hooks: {
            beforeChange: [
              ({ data }) => ({
                ...data,
                slug:
                  data?.slug ??
                  String((data?.title as string) ?? '')
                    .toLowerCase()
                    .replace(/\W+/g, '-'),
              }),
            ],
          },
          livePreview: { url: ({ doc, locale }) => `https://site.example/${locale ?? 'en'}/posts/${doc.slug}` },
          admin: { useAsTitle: 'title' },
        },
      ],
      globals: [{ slug: 'settings', drafts: false, fields: [{ name: 'siteName', type: 'text' }] }],
    });
    editor = await t.user('editor');
  });
  afterAll(async () => {
    await t.stop();
    await hook.stop();
  });

  test('a published post: hook-made slug, hidden field never returned, one signed publish webhook without it', async () => {
    const res = await t.request('POST', '/posts', {
      token: editor.token,
      body: { title: 'Hello World', status: 'published', internalNote: 'psst', author: editor.user.id, views: 1 },
    });
    expect(res.status).toBe(201);
    expect(res.body.doc).toMatchObject({ title: 'Hello World', slug: 'hello-world', status: 'published' });
    expect(res.text).not.toContain('psst');
    await flushWebhooks(t.cms);
    const [request] = await hook.waitFor(1);
    expect(request.headers['x-cms-event']).toBe('publish');
    expect(request.headers['x-team']).toBe('site');
    expect(request.headers['x-cms-signature']).toBe(
      `sha256=${createHmac('sha256', 'whsec').update(request.body).digest('hex')}`,
    );
    expect(request.json).toMatchObject({
      event: 'publish',
      collection: 'posts',
      id: res.body.doc.id,
      doc: { title: { en: 'Hello World' } },
    });
    expect(request.body).not.toContain('internalNote');
    expect(Date.parse(request.json.timestamp)).not.toBeNaN();
  });

  test('anonymous readers see only published posts; drafts are 404 to them', async () => {
    const draft = await t.request('POST', '/posts?draft=true', {
      token: editor.token,
      body: { title: 'Secret plans' },
    });
    expect(draft.status).toBe(201);
    expect(draft.body.doc.status).toBe('draft');
    const list = await t.request('GET', '/posts');
    expect(list.body.docs.map((d: { title: string }) => d.title)).toEqual(['Hello World']);
    expect((await t.request('GET', `/posts/${draft.body.doc.id}`)).status).toBe(404);
    expect((await t.request('GET', `/posts/${draft.body.doc.id}`, { token: editor.token })).status).toBe(200);
    expect(hook.requests).toHaveLength(1); // a draft is not a publish
  });

  test('relationships populate at depth 1 for those who may read users; null for others', async () => {
    const anonymous = await t.request('GET', '/posts/1');
    expect(anonymous.body.author).toBeNull();
    const member = await t.request('GET', '/posts/1', { token: editor.token });
    expect(member.body.author.email).toBe(editor.user.email);
  });

  test('live preview of unsaved changes returns the livePreview url with a token that reads the draft', async () => {
    const preview = await t.request('POST', '/posts/1/preview?locale=de', {
      token: editor.token,
      body: { title: 'Hallo Welt' },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.doc.title).toBe('Hallo Welt');
    const url = new URL(preview.body.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://site.example/de/posts/hello-world');
    expect(url.searchParams.get('preview')).toBeString();
    expect((await t.request('GET', '/posts/1')).body.title).toBe('Hello World'); // nothing saved
  });

  test('globals need a user by default; an editor reads and saves one', async () => {
    expect((await t.request('GET', '/globals/settings')).status).toBe(401);
    const saved = await t.request('POST', '/globals/settings', { token: editor.token, body: { siteName: 'Example' } });
    expect(saved.status).toBe(200);
    expect(saved.body.doc.siteName).toBe('Example');
  });

  test('the cron secret runs jobs; a wrong one or none is a 401 (no valid credentials)', async () => {
    const ok = await t.request('POST', '/jobs/run', { token: 'cron-secret' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      jobs: { ran: expect.any(Number), failed: expect.any(Number) },
      webhooks: { sent: expect.any(Number), failed: expect.any(Number), pending: expect.any(Number) },
    });
    expect((await t.request('GET', '/jobs/run', { token: 'wrong' })).status).toBe(401);
    expect((await t.request('GET', '/jobs/run')).status).toBe(401);
  });

  test('session cookies are Secure because serverURL is https', async () => {
    const res = await t.request('POST', '/users/login', {
      body: { email: editor.user.email, password: 'password123' },
    });
    expect(res.headers.getSetCookie().every((c) => /;\s*Secure/i.test(c))).toBe(true);
  });
});
