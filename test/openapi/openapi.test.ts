/**
 * `GET /openapi.json` (docs/openapi.md): the document is valid OpenAPI 3.1 by a real validator
 * (@readme/openapi-parser), and every operation it documents is answered by the server, for one example
 * request each, with a status it lists and a body that matches that status's schema (ajv, JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1). A documented operation without an example fails the test, so the
 * document and the routes cannot drift apart.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate, compileErrors } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startTestServer, type RequestOptions, type TestResponse, type TestServer } from '../harness.ts';
import { answer, startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { png } from '../support/media-fixtures.ts';
import { fromBase32, referenceTOTP } from '../support/totp-reference.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';
import { appRoutes } from '../../src/http/app.ts';
import type { UserConfig } from '../../src/config/types.ts';

const CRON = 'cron-secret-for-the-openapi-test';
const config = (webhookURL: string): UserConfig => ({
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  webhooks: [{ url: webhookURL, collections: ['posts'], globals: [] }],
  jobs: { secret: CRON },
  backups: { dir: 'backups/' },
  releases: true,
  collections: [
    {
      slug: 'posts',
      drafts: true,
      search: { fields: ['title'] },
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text', required: true, localized: true },
        { name: 'body', type: 'markdown' },
        { name: 'content', type: 'richText' },
        { name: 'views', type: 'number' },
        { name: 'featured', type: 'checkbox' },
        { name: 'publishedOn', type: 'date' },
        { name: 'category', type: 'select', options: ['news', 'guide'] },
        { name: 'tags', type: 'select', options: ['a', 'b'], hasMany: true },
        { name: 'cover', type: 'upload', relationTo: 'media' },
        { name: 'author', type: 'relationship', relationTo: 'users' },
        { name: 'meta', type: 'json' },
        {
          name: 'links',
          type: 'array',
          fields: [
            { name: 'label', type: 'text' },
            { name: 'url', type: 'text' },
          ],
        },
        { name: 'seo', type: 'group', fields: [{ name: 'title', type: 'text' }] },
        { name: 'internalNote', type: 'text', hidden: true },
      ],
    },
  ],
  globals: [{ slug: 'settings', drafts: true, fields: [{ name: 'siteName', type: 'text', localized: true }] }],
});

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
  components: Record<string, any>;
};
type Example = {
  op: string;
  send?: string;
  url: string;
  options?: RequestOptions;
  status: number;
  as?: 'admin' | 'none' | 'cron';
  after?: (res: TestResponse) => void | Promise<void>;
};

let t: TestServer;
let receiver: Receiver;
let doc: Doc;

beforeAll(async () => {
  receiver = startReceiver(answer(410));
  t = await startTestServer(config(receiver.url));
  doc = (await t.request('GET', '/openapi.json')).body;
});
afterAll(async () => {
  await t?.stop();
  await receiver?.stop();
});

describe('GET /openapi.json', () => {
  test('is valid OpenAPI 3.1 by @readme/openapi-parser', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    if (!result.valid) throw new Error(compileErrors(result));
  });

  test('describes the config: per-collection and per-global schemas, locales, the error shape, the security schemes', () => {
    const post = doc.components.schemas.Posts;
    expect(post.required).toEqual(['id', 'createdAt', 'updatedAt']);
    expect(Object.keys(post.properties)).toEqual(
      expect.arrayContaining(['title', 'status', '_status', 'cover', 'links', 'seo']),
    );
    expect(post.properties.internalNote).toBeUndefined();
    expect(JSON.stringify(post.properties.title)).toContain('"propertyNames":{"enum":["en","de"]}');
    expect(doc.components.schemas.PostsCreate.required).toEqual(['title']);
    expect(doc.components.schemas.PostsCreate.properties.category).toEqual({ type: 'string', enum: ['news', 'guide'] });
    expect(doc.components.schemas.SettingsGlobal.properties.siteName).toBeDefined();
    // Every operator a where takes, `near` on points included.
    expect(Object.keys(doc.components.schemas.WhereCondition.properties)).toEqual(
      expect.arrayContaining(['equals', 'in', 'like', 'exists', 'near', 'greater_than']),
    );
    expect(doc.components.schemas.Error.properties.errors.items.required).toEqual(['message']);
    expect(Object.keys(doc.components.securitySchemes)).toEqual([
      'bearerSession',
      'apiKey',
      'sessionCookie',
      'csrfToken',
      'cronSecret',
    ]);
    expect(doc.paths['/posts/{id}/schedule']).toBeDefined();
    expect(doc.paths['/users/{id}/versions']).toBeUndefined(); // users have no drafts
    expect(doc.paths['/webhook-deliveries/{id}/retry']).toBeDefined();
  });

  test('is made once per instance', async () => {
    const again = await t.request('GET', '/openapi.json');
    expect(again.status).toBe(200);
    expect(again.text).toBe(JSON.stringify(doc));
    const { openAPIText } = await import('../../src/openapi/document.ts');
    expect(openAPIText(t.cms.config)).toBe(openAPIText(t.cms.config));
  });
});

describe('every documented operation, answered by the server', () => {
  test('one example request each: a documented status and a body matching its schema', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, 'openapi.json');
    const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

    const state: Record<string, any> = {};
    const admin = () => state.admin as string;
    const future = () => new Date(t.clock.now() + 3_600_000).toISOString();
    const postBody = () => ({
      title: 'Hello',
      body: '# Hi',
      views: 3,
      featured: true,
      publishedOn: '2026-01-01T00:00:00.000Z',
      category: 'news',
      tags: ['a'],
      cover: state.media.id,
      author: state.adminUser.id,
      meta: { any: [1] },
      links: [{ label: 'x', url: 'https://x.example' }],
      seo: { title: 'S' },
      status: 'published',
    });
    const override = { 'x-http-method-override': 'GET' };
    const form = async () => {
      const data = new FormData();
      data.append('file', new File([await png()], 'a.png', { type: 'image/png' }));
      data.append('alt', 'A picture');
      return data;
    };
    const none = { status: 200, as: 'none' as const };
    const examples: (() => Promise<Example> | Example)[] = [
      () => ({ op: 'get /users/init', url: '/users/init', ...none }),
      () => ({ op: 'get /openapi.json', url: '/openapi.json', ...none }),
      () => ({
        op: 'post /users/first-register',
        url: '/users/first-register',
        options: { body: { email: 'admin@example.com', password: 'password123', name: 'Ada' } },
        ...none,
        after: (r) => void Object.assign(state, { admin: r.body.token, adminUser: r.body.user }),
      }),
      () => ({
        op: 'post /users/login',
        url: '/users/login',
        options: { body: { email: 'admin@example.com', password: 'password123' } },
        ...none,
        after: (r) => void (state.second = r.body.token),
      }),
      () => ({ op: 'get /users/me', url: '/users/me', status: 200 }),
      () => ({ op: 'post /users/refresh-token', url: '/users/refresh-token', status: 200 }),
      async () => ({
        op: 'post /media',
        url: '/media',
        options: { body: await form() },
        status: 201,
        after: (r) => void (state.media = r.body.doc),
      }),
      () => ({ op: 'get /media/file/{name}', url: `/media/file/${state.media.filename}`, ...none }),
      () => ({
        op: 'post /users',
        url: '/users',
        options: { body: { email: 'ed@example.com', password: 'password123', role: 'editor' } },
        status: 201,
        after: (r) => void (state.users = r.body.doc),
      }),
      () => ({
        op: 'post /api-keys',
        url: '/api-keys',
        options: { body: { name: 'build', user: state.adminUser.id, scopes: ['posts:read'] } },
        status: 201,
        after: (r) => void (state['api-keys'] = r.body.doc),
      }),
      () => ({
        op: 'post /posts',
        url: '/posts',
        options: { body: postBody() },
        status: 201,
        after: (r) => void (state.posts = r.body.doc),
      }),
      ...['media', 'users', 'api-keys', 'posts'].flatMap((slug) => [
        () => ({ op: `get /${slug}`, url: `/${slug}?limit=5&depth=2`, status: 200 }),
        () => ({ op: `get /${slug}/count`, url: `/${slug}/count`, status: 200 }),
        () => ({
          op: `get /${slug}/{id}`,
          url: `/${slug}/${state[slug].id}${slug === 'posts' ? '?richText=markdown&draft=true' : ''}`,
          status: 200,
        }),
        () => ({
          op: `post /${slug}/{id}`,
          url: `/${slug}/${state[slug].id}`,
          options: { headers: override, body: { depth: 0 } },
          status: 200,
        }),
        () => ({
          op: `patch /${slug}/{id}`,
          url: `/${slug}/${state[slug].id}${slug === 'posts' ? '?draft=true' : ''}`,
          options: {
            body:
              slug === 'api-keys'
                ? { name: 'renamed' }
                : slug === 'posts'
                  ? { title: 'Draft title', status: 'draft' }
                  : slug === 'users'
                    ? { name: 'Ed' }
                    : { alt: 'Changed' },
          },
          status: 200,
        }),
        () => ({
          op: `patch /${slug}`,
          url: `/${slug}?where[id][equals]=${state[slug].id}`,
          options: {
            body:
              slug === 'posts'
                ? { views: 4 }
                : slug === 'users'
                  ? { name: 'Eddie' }
                  : slug === 'api-keys'
                    ? { name: 'again' }
                    : { alt: 'Again' },
          },
          status: 200,
        }),
        () => ({
          op: `post /${slug}/{id}/preview`,
          url: `/${slug}/${state[slug].id}/preview`,
          options: { body: {} },
          status: 200,
        }),
        () => ({
          op: `post /${slug}/preview`,
          url: `/${slug}/preview`,
          options: { body: slug === 'posts' ? { title: 'New' } : {} },
          status: 200,
        }),
      ]),
      // The method-override list read is documented as the list it answers (GET), not beside create.
      () => ({
        op: 'get /posts (override)',
        send: 'POST',
        url: '/posts',
        options: { headers: override, body: { where: { id: { equals: state.posts.id } } } },
        status: 200,
      }),
      () => ({
        op: 'get /posts/versions',
        url: `/posts/versions?where[parent][equals]=${state.posts.id}`,
        status: 200,
        after: (r) => void (state.postVersion = r.body.docs.at(-1).id),
      }),
      () => ({ op: 'get /posts/versions/{version}', url: `/posts/versions/${state.postVersion}`, status: 200 }),
      () => ({ op: 'get /posts/{id}/versions', url: `/posts/${state.posts.id}/versions`, status: 200 }),
      () => ({
        op: 'get /posts/{id}/versions/{version}',
        url: `/posts/${state.posts.id}/versions/${state.postVersion}`,
        status: 200,
      }),
      async () => {
        await t.request('PATCH', `/posts/${state.posts.id}?draft=true`, { token: admin(), body: { title: 'Pending' } });
        return { op: 'post /posts/{id}/discard-draft', url: `/posts/${state.posts.id}/discard-draft`, status: 200 };
      },
      () => ({
        op: 'post /posts/{id}/versions/{version}/restore',
        url: `/posts/${state.posts.id}/versions/${state.postVersion}/restore`,
        status: 200,
      }),
      () => ({ op: 'post /posts/versions/{version}', url: `/posts/versions/${state.postVersion}`, status: 200 }),
      () => ({
        op: 'post /posts/{id}/schedule',
        url: `/posts/${state.posts.id}/schedule`,
        options: { body: { action: 'unpublish', at: future() } },
        status: 201,
        after: (r) => void (state.postJob = r.body.doc.id),
      }),
      () => ({ op: 'get /posts/{id}/schedule', url: `/posts/${state.posts.id}/schedule`, status: 200 }),
      () => ({ op: 'get /jobs/scheduled', url: '/jobs/scheduled', status: 200 }),
      () => ({
        op: 'delete /posts/{id}/schedule/{job}',
        url: `/posts/${state.posts.id}/schedule/${state.postJob}`,
        status: 200,
      }),
      () => ({
        op: 'post /posts/{id}/duplicate',
        url: `/posts/${state.posts.id}/duplicate`,
        options: { body: { title: 'Copied' } },
        status: 200,
      }),
      () => ({ op: 'post /posts/{id}/unpublish', url: `/posts/${state.posts.id}/unpublish`, status: 200 }),
      () => ({ op: 'get /globals/settings', url: '/globals/settings?locale=all', status: 200 }),
      () => ({
        op: 'post /globals/settings',
        url: '/globals/settings',
        options: { body: { siteName: 'Site', status: 'published' } },
        status: 200,
      }),
      () => ({
        op: 'post /globals/settings/preview',
        url: '/globals/settings/preview',
        options: { body: { siteName: 'Unsaved' } },
        status: 200,
      }),
      () => ({
        op: 'get /globals/settings/versions',
        url: '/globals/settings/versions',
        status: 200,
        after: (r) => void (state.globalVersion = r.body.docs[0].id),
      }),
      () => ({
        op: 'get /globals/settings/versions/{version}',
        url: `/globals/settings/versions/${state.globalVersion}`,
        status: 200,
      }),
      () => ({
        op: 'post /globals/settings/versions/{version}/restore',
        url: `/globals/settings/versions/${state.globalVersion}/restore`,
        status: 200,
      }),
      () => ({
        op: 'post /globals/settings/versions/{version}',
        url: `/globals/settings/versions/${state.globalVersion}`,
        status: 200,
      }),
      async () => {
        await t.request('POST', '/globals/settings?draft=true', { token: admin(), body: { siteName: 'Draft' } });
        return { op: 'post /globals/settings/discard-draft', url: '/globals/settings/discard-draft', status: 200 };
      },
      () => ({
        op: 'post /globals/settings/schedule',
        url: '/globals/settings/schedule',
        options: { body: { action: 'unpublish', at: future() } },
        status: 201,
        after: (r) => void (state.globalJob = r.body.doc.id),
      }),
      () => ({ op: 'get /globals/settings/schedule', url: '/globals/settings/schedule', status: 200 }),
      () => ({
        op: 'delete /globals/settings/schedule/{job}',
        url: `/globals/settings/schedule/${state.globalJob}`,
        status: 200,
      }),
      () => ({ op: 'post /globals/settings/unpublish', url: '/globals/settings/unpublish', status: 200 }),
      () => ({
        op: 'post /users/forgot-password',
        url: '/users/forgot-password',
        options: { body: { email: 'ed@example.com' } },
        ...none,
      }),
      () => ({
        op: 'post /users/{id}/reset-link',
        url: `/users/${state.users.id}/reset-link`,
        status: 200,
        after: (r) => void (state.resetToken = new URL(r.body.url).searchParams.get('token')),
      }),
      () => ({
        op: 'post /users/reset-password',
        url: '/users/reset-password',
        options: { body: { token: state.resetToken, password: 'password456' } },
        ...none,
      }),
      () => ({
        op: 'post /users/unlock',
        url: '/users/unlock',
        options: { body: { email: 'ed@example.com' } },
        status: 200,
      }),
      () => ({
        op: 'get /users/sessions',
        url: '/users/sessions',
        status: 200,
        after: (r) => void (state.otherSession = r.body.docs.find((s: { current: boolean }) => !s.current).id),
      }),
      () => ({ op: 'delete /users/sessions/{id}', url: `/users/sessions/${state.otherSession}`, status: 200 }),
      () => ({ op: 'delete /users/sessions', url: '/users/sessions', status: 200 }),
      () => ({ op: 'get /users/totp', url: '/users/totp', status: 200 }),
      () => ({
        op: 'post /users/totp/setup',
        url: '/users/totp/setup',
        status: 200,
        after: (r) => void (state.totpSecret = r.body.secret),
      }),
      async () => ({
        op: 'post /users/totp/enable',
        url: '/users/totp/enable',
        options: {
          body: { code: await referenceTOTP(fromBase32(state.totpSecret), Math.floor(t.clock.now() / 1000)) },
        },
        status: 200,
      }),
      () => ({
        op: 'post /users/totp/disable',
        url: '/users/totp/disable',
        options: { body: { password: 'password123' } },
        status: 200,
      }),
      async () => {
        await flushWebhooks(t.cms); // the post's deliveries, answered 410: failed, kept
        return {
          op: 'get /webhook-deliveries',
          url: '/webhook-deliveries',
          status: 200,
          after: (r) => void (state.delivery = r.body.docs.find((d: { state: string }) => d.state === 'failed').id),
        };
      },
      () => ({
        op: 'post /webhook-deliveries/{id}/retry',
        url: `/webhook-deliveries/${state.delivery}/retry`,
        status: 200,
      }),
      () => ({ op: 'get /jobs/run', url: '/jobs/run', status: 200, as: 'cron' }),
      () => ({ op: 'post /jobs/run', url: '/jobs/run', status: 200 }),
      () => ({ op: 'get /health', url: '/health', ...none }),
      () => ({ op: 'get /metrics', url: '/metrics', status: 200, as: 'cron' }),
      () => ({
        op: 'post /backups',
        url: '/backups',
        status: 201,
        after: (r) => void (state.backup = r.body.doc.name),
      }),
      () => ({ op: 'get /backups', url: '/backups', status: 200 }),
      () => ({ op: 'get /backups/{name}', url: `/backups/${state.backup}`, status: 200 }),
      () => ({ op: 'get /search', url: '/search?q=hel&collections=posts&draft=false', status: 200 }),
      () => ({ op: 'get /audit-log', url: '/audit-log?limit=5&where[action][equals]=create', status: 200 }),
      () => ({
        op: 'post /releases',
        url: '/releases',
        options: { body: { title: 'Launch' } },
        status: 201,
        after: (r: TestResponse) => void (state.release = r.body.doc.id),
      }),
      () => ({ op: 'get /releases', url: '/releases', status: 200 }),
      () => ({ op: 'get /releases/{id}', url: `/releases/${state.release}`, status: 200 }),
      () => ({
        op: 'patch /releases/{id}',
        url: `/releases/${state.release}`,
        options: { body: { title: 'Launch day' } },
        status: 200,
      }),
      () => ({
        op: 'post /releases/{id}/items',
        url: `/releases/${state.release}/items`,
        options: { body: { collection: 'posts', id: state.posts.id, action: 'publish' } },
        status: 200,
        after: (r: TestResponse) => void (state.item = r.body.doc.items[0].id),
      }),
      () => ({
        op: 'delete /releases/{id}/items/{item}',
        url: `/releases/${state.release}/items/${state.item}`,
        status: 200,
      }),
      () => ({
        op: 'post /releases/{id}/items (again)',
        url: `/releases/${state.release}/items`,
        options: { body: { global: 'settings', action: 'unpublish' } },
        status: 200,
      }),
      () => ({
        op: 'post /releases/{id}/schedule',
        url: `/releases/${state.release}/schedule`,
        options: { body: { at: new Date(t.clock.now() + 3600_000).toISOString() } },
        status: 200,
      }),
      () => ({ op: 'post /releases/{id}/unschedule', url: `/releases/${state.release}/unschedule`, status: 200 }),
      () => ({ op: 'post /releases/{id}/preview', url: `/releases/${state.release}/preview`, status: 200 }),
      () => ({ op: 'post /releases/{id}/publish', url: `/releases/${state.release}/publish`, status: 200 }),
      () => ({
        op: 'post /releases/{id}/revert',
        url: `/releases/${state.release}/revert`,
        status: 201,
        after: (r: TestResponse) => void (state.revert = r.body.doc.id),
      }),
      () => ({ op: 'delete /releases/{id}', url: `/releases/${state.revert}`, status: 200 }),
      ...['/posts/{id}', '/media/{id}', '/users/{id}', '/api-keys/{id}', '/globals/settings'].flatMap((template) => {
        const url = () => `${template.replace('{id}', String(state[template.split('/')[1]]?.id))}/lock`;
        const token = () => ({ headers: { 'x-cms-lock-token': state.lockToken } });
        return [
          () => ({
            op: `post ${template}/lock`,
            url: url(),
            options: { body: {} },
            status: 200,
            after: (r: TestResponse) => void (state.lockToken = r.body.lock.token),
          }),
          () => ({ op: `get ${template}/lock`, url: url(), options: token(), status: 200 }),
          () => ({ op: `delete ${template}/lock`, url: url(), options: token(), status: 200 }),
        ];
      }),
      ...['posts', 'api-keys', 'users', 'media'].flatMap((slug) => [
        () => ({ op: `delete /${slug}`, url: `/${slug}?where[id][equals]=999999`, status: 200 }),
        () => ({ op: `delete /${slug}/{id}`, url: `/${slug}/${state[slug].id}`, status: 200 }),
      ]),
      () => ({ op: 'post /users/logout', url: '/users/logout', status: 200 }),
    ];

    const answered = new Set<string>();
    const failures: string[] = [];
    for (const make of examples) {
      const example = await make();
      const [method, template] = example.op.replace(/ \(.*\)$/, '').split(' ') as [string, string];
      const options: RequestOptions = { ...example.options };
      if (example.as === 'cron') options.headers = { ...options.headers, authorization: `Bearer ${CRON}` };
      else if (example.as !== 'none') options.token = admin();
      const res = await t.request((example.send ?? method).toUpperCase(), example.url, options);
      const operation = doc.paths[template]?.[method];
      if (!operation) {
        failures.push(`${example.op}: not in the document`);
        continue;
      }
      answered.add(`${method} ${template}`);
      if (res.status !== example.status)
        failures.push(`${example.op}: expected ${example.status}, got ${res.status} ${res.text.slice(0, 300)}`);
      const response = operation.responses[String(res.status)];
      if (!response) {
        failures.push(`${example.op}: status ${res.status} is not documented`);
        continue;
      }
      if (response.content?.['application/json']) {
        const check = ajv.getSchema(
          `openapi.json#/${pointer('paths', template, method, 'responses', String(res.status), 'content', 'application/json', 'schema')}`,
        )!;
        if (!check(res.body))
          failures.push(`${example.op}: ${res.status} body does not match its schema: ${ajv.errorsText(check.errors)}`);
      } else {
        expect(res.headers.get('content-type')).not.toContain('application/json');
      }
      await example.after?.(res);
    }
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(failures).toEqual([]);
    expect(documented.filter((op) => !answered.has(op))).toEqual([]);
  }, 60_000);
});

/**
 * Routes of the API without an OpenAPI path, as docs/openapi.md lists them ("Routes without a path"), each
 * with its reason there: the admin's private routes, and the protocols with their own self-description
 * (GraphQL introspection, MCP's tools/list, the realtime stream). A path written with "…" stands for
 * every path under it.
 */
function routesWithoutAPath(): string[] {
  const page = readFileSync(join(import.meta.dir, '../../docs/openapi.md'), 'utf8');
  const bullet = page.slice(page.indexOf('- **Routes without a path.**'));
  const text = bullet.slice(0, bullet.indexOf('\n- **', 1));
  return [...text.matchAll(/`(\/[^`]*)`/g)].map((m) => m[1]!.replace(/…$/, ''));
}

describe('every registered route', () => {
  test('has a path in the document, or is one of the listed exceptions', () => {
    const api = t.cms.config.routes.api;
    const slugs = t.cms.config.collections.map((c) => c.slug);
    const globals = t.cms.config.globals.map((g) => g.slug);
    const missing: string[] = [];
    const skipped = routesWithoutAPath();
    expect(skipped).toEqual(['/_admin/config', '/_admin/conditions/', '/graphql', '/mcp', '/realtime']);
    // The admin's pages are served beside the API, under routes.admin.
    for (const route of appRoutes(t.cms).filter((r) => r.path.startsWith(`${api}/`))) {
      const path = route.path.slice(api.length);
      if (skipped.some((skip) => (skip.endsWith('/') ? path.startsWith(skip) : path === skip))) continue;
      // A template route stands for each collection or global it serves: one of them must be documented.
      const candidates = (path.startsWith('/globals/:slug') ? globals : path.includes(':collection') ? slugs : [''])
        .map((slug) => path.replace(':collection', slug).replace(':slug', slug))
        .map((p) => p.replace(/:(\w+)/g, '{$1}'));
      if (!candidates.some((p) => doc.paths[p])) missing.push(`${route.method} ${path}`);
    }
    expect(missing).toEqual([]);
  });
});
