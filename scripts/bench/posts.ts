/**
 * The benchmarked collection, its seed and the requests made of it, shared by the benches that compare
 * the CMS with something else over the same 10,000 posts.
 */
import path from 'node:path';
import { manualClock } from '../../src/clock.ts';
import type { getCMS as GetCMS } from '../../src/local.ts';

/** 340 bytes, as every seeded and created post's body. */
export const postBody = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(6).slice(0, 340);

/** The posts collection, as config source: the CMS's cms.config.ts and the Payload app both take it. */
export const postsCollection = `{
  slug: 'posts',
  access: { read: () => true },
  indexes: [{ fields: ['status', 'createdAt'] }],
  fields: [
    { name: 'title', type: 'text', required: true },
    { name: 'body', type: 'textarea' },
    { name: 'status', type: 'select', options: ['draft', 'published'] },
    { name: 'views', type: 'number' },
  ],
}`;

/** The same collection with an `author` relationship to the users, for the benches that read it at depth 1. */
export const postsWithAuthorCollection = postsCollection.replace(
  "{ name: 'views', type: 'number' },",
  "{ name: 'views', type: 'number' },\n    { name: 'author', type: 'relationship', relationTo: 'users' },",
);

export const postsConfig = (
  database?: string,
  collection = postsCollection,
) => `export default {${database ? `\n  database: ${JSON.stringify(database)},` : ''}
  collections: [${collection}],
}
`;

/** The admin the seed makes and the create requests are sent as. */
export const benchUser = { email: 'bench@example.com', password: 'password123' };

/**
 * One admin (benchUser), then `total` posts through the Local API, one create each,
 * 1 s apart from 2026-01-01: half draft, half published, each by that admin when `withAuthor` (the
 * collection then has postsWithAuthorCollection's field). `getCMS` is the checkout's whose project it is.
 */
export async function seedPosts(getCMS: typeof GetCMS, dir: string, total: number, withAuthor = false): Promise<void> {
  const clock = manualClock(Date.parse('2026-01-01T00:00:00Z'));
  const cms = await getCMS({
    config: path.join(dir, 'cms.config.ts'),
    clock,
    log: { info() {}, warn: console.warn, error: console.error },
  });
  const started = performance.now();
  const user = await cms.create({ collection: 'users', data: { ...benchUser, role: 'admin' } });
  const author = withAuthor ? { author: user.id } : {};
  for (let i = 0; i < total; i++) {
    clock.advance(1000);
    await cms.create({
      collection: 'posts',
      data: { title: `Post ${i}`, body: postBody, status: i % 2 ? 'published' : 'draft', views: i, ...author },
    });
    if (i % 1000 === 999) process.stdout.write(`\rseeding ${i + 1}/${total}`);
  }
  console.log(`\rseeded ${total} posts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await cms.close();
}

/**
 * The benchmarked requests under an API root (`/api/cms` on the CMS, `/api` on Payload): the published
 * posts, newest first, 20 and the total; one post from the middle of the `total` seeded; the created post.
 */
export const benchRequests = (total: number) => ({
  list: '/posts?where[status][equals]=published&sort=-createdAt&limit=20&depth=0',
  read: `/posts/${Math.floor(total / 2) + 1}?depth=0`,
  createBody: JSON.stringify({ title: 'Bench post', body: postBody, status: 'published', views: 1 }),
});

/** The list of `benchRequests` as one GraphQL query: the same documents and total. */
export const graphqlListQuery = `{ Posts(where: { status: { equals: published } }, sort: "-createdAt", limit: 20) {
  docs { id title body status views createdAt updatedAt } totalDocs limit page totalPages hasNextPage } }`;

/** The list of `benchRequests` as an MCP `find` call. */
export const mcpFindBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'find',
    arguments: { collection: 'posts', where: { status: { equals: 'published' } }, sort: '-createdAt', limit: 20 },
  },
});

/** A session token for benchUser from `<api>/users/login`. */
export async function login(api: string): Promise<string> {
  const url = `${api}/users/login`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(benchUser),
  });
  if (!res.ok) throw new Error(`login at ${url}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}
