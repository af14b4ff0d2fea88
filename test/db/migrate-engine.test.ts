// Runs once (on the SQLite pass): copies a SQLite project into PostgreSQL, both engines in one run.
/**
 * `cms migrate:engine --to postgres://…` (docs/postgres.md): a SQLite project made through the operations —
 * localized, structured and hasMany fields, drafts and versions, a scheduled job, users, a session and an
 * API key — is copied by the real command into an empty PostgreSQL database; a server on that database
 * then answers as the SQLite one did, the old session and key still work, and new documents continue the ids.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { createCMS } from '../../src/create-cms.ts';
import { createContext } from '../../src/operation-context.ts';
import { create } from '../../src/operations/create.ts';
import { update } from '../../src/operations/update.ts';
import { scheduleAction } from '../../src/operations/schedule.ts';
import { createSession } from '../../src/auth/sessions.ts';
import { lastChangeIdOfFile } from '../../src/cli/restore-change-ids.ts';
import { quietLog, startTestServer, tempDir, type TestServer } from '../harness.ts';
import { openSSE } from '../support/sse-client.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';

const CLI = path.join(import.meta.dir, '../../src/cli/main.ts');
const config = {
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  collections: [
    {
      slug: 'posts',
      drafts: true,
      search: { fields: ['title', 'seo.description'] },
      fields: [
        { name: 'title', type: 'text', required: true, localized: true },
        { name: 'slug', type: 'text', unique: true },
        { name: 'tags', type: 'select', options: ['a', 'b', 'c'], hasMany: true },
        { name: 'seo', type: 'group', fields: [{ name: 'description', type: 'text' }] },
        { name: 'links', type: 'array', fields: [{ name: 'label', type: 'text' }] },
        { name: 'featured', type: 'checkbox' },
        { name: 'rank', type: 'number' },
      ],
    },
  ],
};

let dir: string;
let pg: TestDatabase;
let sessionToken: string;
let apiKey: string;
const reads = [
  '/posts?locale=all&sort=id&limit=100',
  '/posts?draft=true&sort=id&where[tags][in]=b',
  '/posts/2?locale=de',
  '/posts/1/versions',
  '/users?sort=id',
  // The full-text index is made again on the new engine: the same documents match.
  '/posts?search=about&sort=id&limit=100&depth=0',
];

const cli = (...args: string[]) =>
  Bun.spawnSync([process.execPath, CLI, ...args, '--config', path.join(dir, 'cms.config.json')], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production' },
    stdout: 'pipe',
    stderr: 'pipe',
  });

async function answers(t: TestServer): Promise<unknown[]> {
  return Promise.all(reads.map(async (url) => (await t.request('GET', url, { token: sessionToken })).body));
}

beforeAll(async () => {
  dir = tempDir('cms-engine-');
  fs.writeFileSync(path.join(dir, 'cms.config.json'), JSON.stringify({ ...config, database: 'data/cms.db' }));
  const cms = await createCMS({ configPath: path.join(dir, 'cms.config.json'), log: quietLog });
  const ctx = createContext(cms, { overrideAccess: true });
  const admin = await create(ctx, {
    collection: 'users',
    data: { email: 'admin@example.com', password: 'password123', role: 'admin' },
  });
  for (let i = 1; i <= 30; i++) {
    await create(ctx, {
      collection: 'posts',
      data: {
        title: `Post ${i}`,
        slug: `post-${i}`,
        tags: i % 2 ? ['a', 'b'] : ['c'],
        seo: { description: `about ${i}` },
        links: [{ label: `l${i}` }],
        featured: i % 3 === 0,
        rank: i / 2,
        status: 'published',
      },
    });
  }
  await update(createContext(cms, { overrideAccess: true, locale: 'de' }), {
    collection: 'posts',
    id: 2,
    data: { title: 'Beitrag 2' },
  });
  await update(ctx, { collection: 'posts', id: 1, data: { title: 'Draft title', tags: ['b'] }, draft: true });
  await scheduleAction(ctx, {
    collection: 'posts',
    id: 1,
    action: 'publish',
    at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  sessionToken = (await createSession(cms, admin.id as number)).token;
  apiKey = (
    await create(ctx, { collection: 'api-keys', data: { name: 'script', user: admin.id, scopes: ['posts:read'] } })
  ).key as string;
  await cms.close();
  pg = await createTestDatabase();
});

afterAll(async () => {
  await pg?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('cms migrate:engine', () => {
  test('copies everything into an empty PostgreSQL database with a progress line and a count check; the copy answers as the original', async () => {
    const before = await startTestServer({ ...config, database: path.join(dir, 'data/cms.db') } as never, { dir });
    const expected = await answers(before);
    await before.server.stop();

    const lastEventId = lastChangeIdOfFile(path.join(dir, 'data/cms.db'))!;
    expect(lastEventId).toBeGreaterThanOrEqual(30);
    const run = cli('migrate:engine', '--to', pg.url);
    const out = run.stdout.toString();
    expect({ code: run.exitCode, err: run.stderr.toString() }).toEqual({ code: 0, err: '' });
    expect(out).toContain('posts: 30/30');
    expect(out).toContain('every count matches');
    expect(out).toContain('reindexed posts: 30 documents');
    expect(out).not.toContain('cms_test:cms_test@'); // the password never printed
    expect(fs.readdirSync(path.join(dir, 'migrations', 'postgres')).some((f) => f.endsWith('.sql'))).toBe(true);

    const after = await startTestServer({ ...config, database: pg.url } as never, { dir });
    try {
      expect(await answers(after)).toEqual(expected);
      // The session and the key made on SQLite still work; the password too.
      expect((await after.request('GET', '/users/me', { token: sessionToken })).body.user.email).toBe(
        'admin@example.com',
      );
      expect((await after.request('GET', '/posts?limit=1', { token: apiKey })).status).toBe(200);
      await after.login('admin@example.com', 'password123');
      // A realtime client of the SQLite server resumes on PostgreSQL: told to start over, then told of changes.
      const resumed = await openSSE(`${after.api}/realtime?topics=posts`, {
        authorization: `Bearer ${sessionToken}`,
        'last-event-id': String(lastEventId),
      });
      // New documents continue the ids, and the scheduled job is still pending.
      const created = await after.request('POST', '/posts', {
        token: sessionToken,
        body: { title: 'After the move', slug: 'after' },
      });
      expect(created.body.doc.id).toBe(31);
      const events = await resumed.waitFor(2);
      resumed.close();
      expect(events.map((e) => [e.event, e.data.doc?.id])).toEqual([
        ['reset', undefined],
        ['create', 31],
      ]);
      for (const e of events) expect(Number(e.id)).toBeGreaterThan(lastEventId);
      expect((await after.request('GET', '/posts/1/schedule', { token: sessionToken })).body.docs).toHaveLength(1);
    } finally {
      await after.server.stop();
    }
  }, 60_000);

  test('refuses a target that is not empty, and a target that is not PostgreSQL', () => {
    const again = cli('migrate:engine', '--to', pg.url);
    expect(again.exitCode).toBe(1);
    expect(again.stderr.toString()).toContain('not empty');
    const bad = cli('migrate:engine', '--to', path.join(dir, 'other.db'));
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr.toString()).toContain('--to postgres://');
  });
});
