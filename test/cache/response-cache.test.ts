/**
 * The response cache (docs/caching.md) is never wrong: every way a change can reach the
 * database makes the next read fresh (REST, bulk routes, a scheduled publish, a version restore, the
 * Local API in another process, SQL by hand in another process), answers never cross callers whose
 * rights differ, drafts never reach anonymous readers, and a 304 means nothing changed. A hook counting
 * its calls proves when an answer came from the cache. Runs on the engine of the suite's pass.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TEST_ENGINE, startTestServer, tempDir, type Session, type TestServer } from '../harness.ts';

const ROOT = path.join(import.meta.dir, '../..');
const CRON = { authorization: 'Bearer cache-test-cron-secret' };

const CONFIG = `
const calls = (globalThis as any).cacheTestCalls ??= {};
const counted = (name: string) => ({ doc }: any) => { calls[name] = (calls[name] ?? 0) + 1; return doc; };
const canEdit = ({ user }: any) => Boolean(user) && user.role !== 'viewer';
export default {
  auth: { roles: ['admin', 'editor', 'viewer'] },
  jobs: { secret: 'cache-test-cron-secret' },
  cache: { maxSize: 256 * 1024 },
  cors: ['https://site.example'],
  collections: [
    { slug: 'authors', access: { read: () => true, create: canEdit, update: canEdit }, fields: [{ name: 'name', type: 'text' }] },
    {
      slug: 'posts', drafts: true,
      access: { read: ({ user }: any) => (user ? true : { status: { equals: 'published' } }), create: canEdit, update: canEdit, delete: canEdit },
      hooks: { afterRead: [counted('posts')] },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'author', type: 'relationship', relationTo: 'authors' },
        { name: 'note', type: 'text', access: { read: ({ user }: any) => user?.role === 'admin' } },
      ],
    },
    { slug: 'memos', access: { read: ({ user }: any) => user?.role === 'editor' || user?.role === 'admin', create: canEdit }, fields: [{ name: 'text', type: 'text' }] },
    { slug: 'team-notes', access: { read: ({ req }: any) => req.headers.get('x-team') === 'blue', create: canEdit }, fields: [{ name: 'text', type: 'text' }] },
    { slug: 'counters', cache: false, access: { read: () => true, create: canEdit }, hooks: { afterRead: [counted('counters')] }, fields: [{ name: 'n', type: 'number' }, { name: 'label', type: 'text' }] },
    {
      slug: 'shelves', cache: { dependsOn: ['authors'], control: 'public, max-age=60' },
      access: { read: () => true, create: canEdit }, hooks: { afterRead: [counted('shelves')] }, fields: [{ name: 'label', type: 'text' }],
    },
  ],
  globals: [{ slug: 'site', access: { read: () => true, update: canEdit }, fields: [{ name: 'name', type: 'text' }] }],
};
`;

/** Another process writing to the same database: through the Local API, or by hand-written SQL. */
const CHILD = `
const [mode, configFile, database, id, title] = process.argv.slice(2);
if (mode === 'local') {
  const { getCMS } = await import(${JSON.stringify(path.join(ROOT, 'src/local.ts'))});
  const cms = await getCMS({ config: configFile, database, migrate: false });
  await cms.update({ collection: 'posts', id: Number(id), data: { title } });
  await cms.close();
} else if (database.startsWith('postgres')) {
  const sql = new Bun.SQL(database, { max: 1 });
  await sql\`UPDATE "posts" SET "title" = \${title} WHERE "id" = \${Number(id)}\`;
  await sql.close();
} else {
  const { Database } = await import('bun:sqlite');
  const db = new Database(database);
  db.query('UPDATE "posts" SET "title" = ? WHERE "id" = ?').run(title, Number(id));
  db.close();
}
`;

let t: TestServer;
let dir: string;
let admin: Session;
let editor: Session;
const calls = (name: string): number => ((globalThis as any).cacheTestCalls?.[name] ?? 0) as number;
const get = (url: string, o: Parameters<TestServer['request']>[2] = {}) => t.request('GET', url, o);

/**
 * Another process's commit reaches this server's cache as a notification on PostgreSQL, a millisecond or so
 * later (docs/caching.md), and at once on SQLite: read until the title is the expected one, within that bound.
 */
const NOTIFICATION_BOUND = DEFAULT_TEST_ENGINE === 'postgres' ? 2_000 : 0;
async function readTitleWithin(url: string, expected: string): Promise<unknown> {
  const deadline = Date.now() + NOTIFICATION_BOUND;
  for (;;) {
    const title = (await get(url)).body.title;
    if (title === expected || Date.now() >= deadline) return title;
    await Bun.sleep(5);
  }
}

function inChild(mode: 'local' | 'sql', id: number, title: string): void {
  const child = Bun.spawnSync(
    [
      process.execPath,
      path.join(dir, 'child.ts'),
      mode,
      path.join(dir, 'cms.config.ts'),
      t.database,
      String(id),
      title,
    ],
    { cwd: dir, stderr: 'pipe' },
  );
  if (child.exitCode !== 0) throw new Error(`child ${mode} failed: ${child.stderr.toString()}`);
}

async function createPost(data: Record<string, unknown>, query = ''): Promise<number> {
  const res = await t.request('POST', `/posts${query}`, { token: editor.token, body: data });
  expect(res.status).toBe(201);
  return res.body.doc.id;
}

beforeAll(async () => {
  dir = tempDir('cms-cache-');
  fs.writeFileSync(path.join(dir, 'cms.config.ts'), CONFIG);
  fs.writeFileSync(path.join(dir, 'child.ts'), CHILD);
  const config = (await import(path.join(dir, 'cms.config.ts'))).default;
  t = await startTestServer(config, { dir });
  admin = await t.user('admin');
  editor = await t.user('editor');
});
afterAll(() => t?.stop());

describe('a repeated read is served from the cache', () => {
  test('the second identical read runs no hook and answers the same bytes and ETag', async () => {
    await createPost({ title: 'Kept', status: 'published' });
    const first = await get('/posts?sort=title');
    const before = calls('posts');
    const second = await get('/posts?sort=title');
    expect(calls('posts')).toBe(before);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(first.headers.get('etag')).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
  });

  test('a logged-in answer is marked private', async () => {
    const res = await get('/posts', { token: editor.token });
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
  });
});

describe('every way of writing makes the next read fresh', () => {
  test('a REST update: list, read, count and a populated author', async () => {
    const author = (await t.request('POST', '/authors', { token: editor.token, body: { name: 'Ada' } })).body.doc.id;
    const id = await createPost({ title: 'Before', status: 'published', author });
    const reads = [
      `/posts/${id}`,
      '/posts?where[title][equals]=After',
      '/posts/count?where[title][equals]=After',
      `/posts/${id}?depth=1`,
    ];
    const before = await Promise.all(reads.map((u) => get(u)));
    expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(before[1].body.totalDocs).toBe(0);
    expect((await t.request('PATCH', `/posts/${id}`, { token: editor.token, body: { title: 'After' } })).status).toBe(
      200,
    );
    const after = await Promise.all(reads.map((u) => get(u)));
    expect(after[0].body.title).toBe('After');
    expect(after[1].body.totalDocs).toBe(1);
    expect(after[2].body).toEqual({ totalDocs: 1 });
    expect(after[3].body.author.name).toBe('Ada');
    // A change to the populated collection alone refreshes the populated read.
    await t.request('PATCH', `/authors/${author}`, { token: editor.token, body: { name: 'Grace' } });
    expect((await get(`/posts/${id}?depth=1`)).body.author.name).toBe('Grace');
  });

  test('a bulk update by where', async () => {
    const id = await createPost({ title: 'bulk-old', status: 'published' });
    expect((await get(`/posts/${id}`)).body.title).toBe('bulk-old');
    const res = await t.request('PATCH', '/posts?where[title][equals]=bulk-old', {
      token: editor.token,
      body: { title: 'bulk-new' },
    });
    expect(res.status).toBe(200);
    expect((await get(`/posts/${id}`)).body.title).toBe('bulk-new');
  });

  test('a global saved', async () => {
    expect((await get('/globals/site')).body.name ?? null).toBe(null);
    await t.request('POST', '/globals/site', { token: editor.token, body: { name: 'Fresh' } });
    expect((await get('/globals/site')).body.name).toBe('Fresh');
  });

  test('a scheduled publish run by the job runner', async () => {
    const id = await createPost({ title: 'Scheduled', status: 'draft' });
    const listed = () => get('/posts?where[title][equals]=Scheduled').then((r) => r.body.totalDocs);
    expect(await listed()).toBe(0);
    const at = new Date(t.clock.now() + 3_600_000).toISOString();
    expect(
      (await t.request('POST', `/posts/${id}/schedule`, { token: editor.token, body: { action: 'publish', at } }))
        .status,
    ).toBe(201);
    expect(await listed()).toBe(0);
    t.clock.advance(2 * 3_600_000);
    expect((await t.request('POST', '/jobs/run', { headers: CRON })).body.jobs).toEqual({ ran: 1, failed: 0 });
    expect(await listed()).toBe(1);
  });

  test('a version restored', async () => {
    const id = await createPost({ title: 'First', status: 'published' });
    await t.request('PATCH', `/posts/${id}`, { token: editor.token, body: { title: 'Second' } });
    expect((await get(`/posts/${id}`)).body.title).toBe('Second');
    const versions = (await get(`/posts/${id}/versions?sort=createdAt`, { token: editor.token })).body.docs;
    const first = versions.find((v: any) => v.version.title === 'First');
    expect((await t.request('POST', `/posts/${id}/versions/${first.id}/restore`, { token: editor.token })).status).toBe(
      200,
    );
    expect((await get(`/posts/${id}`)).body.title).toBe('First');
  });

  test('the Local API in another process', async () => {
    const id = await createPost({ title: 'Mine', status: 'published' });
    expect((await get(`/posts/${id}`)).body.title).toBe('Mine');
    inChild('local', id, 'From a script');
    expect(await readTitleWithin(`/posts/${id}`, 'From a script')).toBe('From a script');
  });

  test('SQL written by hand in another process', async () => {
    const id = await createPost({ title: 'Typed', status: 'published' });
    expect((await get(`/posts/${id}`)).body.title).toBe('Typed');
    expect((await get('/posts/count?where[title][equals]=Edited by hand')).body.totalDocs).toBe(0);
    inChild('sql', id, 'Edited by hand');
    expect(await readTitleWithin(`/posts/${id}`, 'Edited by hand')).toBe('Edited by hand');
    expect((await get('/posts/count?where[title][equals]=Edited by hand')).body.totalDocs).toBe(1);
  });

  test('a write elsewhere keeps the answer: only the tables a read depends on count', async () => {
    await get('/posts?limit=3');
    const before = calls('posts');
    await t.request('POST', '/memos', { token: editor.token, body: { text: 'unrelated' } });
    await get('/posts?limit=3');
    expect(calls('posts')).toBe(before);
  });
});

describe('answers never cross callers', () => {
  test('a user whose role changes sees the new rights at once, both ways', async () => {
    await t.request('POST', '/memos', { token: editor.token, body: { text: 'for editors' } });
    const viewer = await t.user('viewer');
    const id = viewer.user.id;
    expect((await get('/memos', { token: viewer.token })).status).toBe(403);
    expect((await t.request('PATCH', `/users/${id}`, { token: admin.token, body: { role: 'editor' } })).status).toBe(
      200,
    );
    expect((await get('/memos', { token: viewer.token })).status).toBe(200);
    expect((await t.request('PATCH', `/users/${id}`, { token: admin.token, body: { role: 'viewer' } })).status).toBe(
      200,
    );
    expect((await get('/memos', { token: viewer.token })).status).toBe(403);
  });

  test("two users with different field access never see each other's answers", async () => {
    const id = await createPost({ title: 'With a note', note: 'admins only', status: 'published' });
    const url = `/posts/${id}`;
    expect((await get(url, { token: admin.token })).body.note).toBe('admins only');
    expect((await get(url, { token: editor.token })).body).not.toHaveProperty('note');
    expect((await get(url)).body).not.toHaveProperty('note');
    expect((await get(url, { token: admin.token })).body.note).toBe('admins only');
    const list = `/posts?where[id][equals]=${id}`;
    expect((await get(list)).text).not.toContain('admins only');
    expect((await get(list, { token: admin.token })).text).toContain('admins only');
    expect((await get(list, { token: editor.token })).text).not.toContain('admins only');
  });

  test('drafts never reach anonymous readers through the cache', async () => {
    const id = await createPost({ title: 'Live title', status: 'published' });
    await t.request('PATCH', `/posts/${id}?draft=true`, { token: editor.token, body: { title: 'Secret draft' } });
    expect((await get(`/posts/${id}?draft=true`, { token: editor.token })).body.title).toBe('Secret draft');
    expect((await get(`/posts?draft=true&where[id][equals]=${id}`, { token: editor.token })).text).toContain(
      'Secret draft',
    );
    for (const url of [`/posts/${id}?draft=true`, `/posts/${id}`, `/posts?draft=true&where[id][equals]=${id}`]) {
      const res = await get(url);
      expect(res.text).not.toContain('Secret draft');
      expect(res.text).toContain('Live title');
    }
  });

  test('a preview-token read is never kept, however its name is percent-encoded', async () => {
    const id = await createPost({ title: 'Public', status: 'published' });
    await t.request('PATCH', `/posts/${id}?draft=true`, { token: editor.token, body: { title: 'Previewed draft' } });
    const made = await t.request('POST', `/posts/${id}/preview`, { token: editor.token, body: {} });
    const token = new URL(made.body.url).searchParams.get('preview')!;
    const names = ['preview', 'pr%65view', '%70review', '%70%72%65%76%69%65%77', 'PR%65VIEW'.toLowerCase()];
    for (const name of names) {
      const url = `/posts/${id}?${name}=${token}`;
      expect((await get(url)).body.title).toBe('Previewed draft');
      const before = calls('posts');
      expect((await get(url)).body.title).toBe('Previewed draft');
      expect(calls('posts')).toBe(before + 1);
    }
    // Once the token has expired, no encoding of its name reads the draft from anywhere.
    t.clock.advance(2 * 3600_000);
    for (const name of names) {
      const res = await get(`/posts/${id}?${name}=${token}`);
      expect(res.status).toBe(403);
      expect(res.text).not.toContain('Previewed draft');
    }
  });

  test('a rule that reads the request is asked every time', async () => {
    await t.request('POST', '/team-notes', { token: editor.token, body: { text: 'blue only' } });
    expect((await get('/team-notes', { headers: { 'x-team': 'blue' } })).status).toBe(200);
    expect((await get('/team-notes', { headers: { 'x-team': 'red' } })).status).toBe(401);
    expect((await get('/team-notes', { headers: { 'x-team': 'blue' } })).status).toBe(200);
  });

  test("an API key with no scopes is not its user's session", async () => {
    const created = await t.request('POST', '/api-keys', {
      token: admin.token,
      body: { name: 'none', user: editor.user.id, scopes: ['authors:read'] },
    });
    expect(created.status).toBe(201);
    // REST refuses an empty list; a key whose stored scopes hold none that count still has none.
    await t.cms.store.run('UPDATE "api-keys" SET "scopes" = ? WHERE "id" = ?', [
      t.cms.store.dialect.encodeJSON([42]),
      created.body.doc.id,
    ]);
    expect((await get('/memos', { token: editor.token })).status).toBe(200);
    expect((await get('/memos', { token: created.body.key })).status).toBe(403);
  });

  test('an API key with fewer scopes is its own caller', async () => {
    const created = await t.request('POST', '/api-keys', {
      token: admin.token,
      body: { name: 'narrow', user: editor.user.id, scopes: ['authors:read'] },
    });
    expect(created.status).toBe(201);
    const key = created.body.key;
    expect((await get('/memos', { token: editor.token })).status).toBe(200);
    expect((await get('/memos', { token: key })).status).toBe(403);
  });
});

describe('conditional requests', () => {
  test('If-None-Match gets a 304 without running the read, and a 200 once something changed', async () => {
    const id = await createPost({ title: 'Tagged', status: 'published' });
    const url = `/posts/${id}`;
    const first = await get(url);
    const etag = first.headers.get('etag')!;
    const before = calls('posts');
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get(url, { headers: { 'if-none-match': header } });
      expect(res.status).toBe(304);
      expect(res.text).toBe('');
      expect(res.headers.get('etag')).toBe(etag);
    }
    expect(calls('posts')).toBe(before);
    expect((await get(url, { headers: { 'if-none-match': '"something-else"' } })).status).toBe(200);
    await t.request('PATCH', url, { token: editor.token, body: { title: 'Retagged' } });
    const changed = await get(url, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.body.title).toBe('Retagged');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  test('a write that changes nothing the answer shows still answers 304: the tag is the bytes', async () => {
    const id = await createPost({ title: 'Same', status: 'published' });
    const etag = (await get(`/posts/${id}?select[title]=true`)).headers.get('etag')!;
    await t.request('PATCH', `/posts/${id}`, { token: editor.token, body: { note: 'not selected' } });
    expect((await get(`/posts/${id}?select[title]=true`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });
});

describe('configuration', () => {
  test('cache: false runs every read, and still tags it', async () => {
    await t.request('POST', '/counters', { token: editor.token, body: { n: 1 } });
    await get('/counters');
    const before = calls('counters');
    const res = await get('/counters');
    expect(calls('counters')).toBe(before + 1);
    expect(res.headers.get('etag')).toBeTruthy();
    expect((await get('/counters', { headers: { 'if-none-match': res.headers.get('etag')! } })).status).toBe(304);
  });

  test('cache: false tags the bytes it sends, as a kept answer is tagged, whatever their characters', async () => {
    const label = 'Café, ✓ and 😀';
    const created = await t.request('POST', '/counters', { token: editor.token, body: { n: 2, label } });
    const res = await t.fetch(`/counters/${created.body.doc.id}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get('etag')).toBe(`"${bytes.byteLength.toString(36)}-${Bun.hash(bytes).toString(36)}"`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(new TextDecoder().decode(bytes)).label).toBe(label);
  });

  test('dependsOn: a change to a named collection refreshes; control sets Cache-Control for anonymous answers', async () => {
    await t.request('POST', '/shelves', { token: editor.token, body: { label: 'A' } });
    const first = await get('/shelves');
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    expect((await get('/shelves', { token: editor.token })).headers.get('cache-control')).toBe('private, no-cache');
    const before = calls('shelves');
    await get('/shelves');
    expect(calls('shelves')).toBe(before);
    await t.request('POST', '/authors', { token: editor.token, body: { name: 'Someone' } });
    await get('/shelves');
    expect(calls('shelves')).toBe(before + 1);
  });

  test('memory stays within cache.maxSize, and /metrics shows the cache', async () => {
    const id = await createPost({ title: 'x'.repeat(2000), status: 'published' });
    for (let i = 0; i < 300; i++) await get(`/posts/${id}?v=${i}`);
    const metrics = (await get('/metrics', { token: admin.token })).text;
    const value = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(metrics)?.[1]);
    expect(value('cms_response_cache_max_bytes')).toBe(256 * 1024);
    expect(value('cms_response_cache_bytes')).toBeGreaterThan(100 * 1024);
    expect(value('cms_response_cache_bytes')).toBeLessThanOrEqual(256 * 1024);
    expect(value('cms_response_cache_evictions_total')).toBeGreaterThan(0);
    expect(metrics).toMatch(/cms_response_cache_lookups_total\{result="hit"\} [1-9]/);
  });
});

describe('before routing', () => {
  test("a refused API key is still answered in the contract's shape, with CORS headers, when answers are kept", async () => {
    await get('/posts');
    const res = await get('/posts', { token: 'cms_not-a-key', headers: { origin: 'https://site.example' } });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].message).toBeTruthy();
    expect(res.headers.get('access-control-allow-origin')).toBe('https://site.example');
  });
});
