// Runs once (on the SQLite pass): Local API instances on SQLite files of their own.
/** `releases.*` in the Local API (docs/releases.md): the same operations as REST, access skipped unless asked for. */
import { expect, test } from 'bun:test';
import path from 'node:path';
import { getCMS } from '../../src/local.ts';
import { quietLog, tempDir } from '../harness.ts';
import type { AccessRule } from '../../src/config/types.ts';
import { createContext } from '../../src/operation-context.ts';
import * as operations from '../../src/operations/index.ts';

test('create, addItem, removeItem, find, publish, revert, schedule and unschedule through releases.*', async () => {
  const dir = tempDir();
  const cms = await getCMS({
    config: {
      database: path.join(dir, 'cms.db'),
      releases: true,
      collections: [{ slug: 'posts', drafts: true, fields: [{ name: 'title', type: 'text', required: true }] }],
    },
    rootDir: dir,
    log: quietLog,
  });
  try {
    const post = await cms.create({ collection: 'posts', data: { title: 'Live', status: 'published' } });
    await cms.update({ collection: 'posts', id: post.id as number, data: { title: 'Next' }, draft: true });
    const release = await cms.releases.create({ data: { title: 'Launch' } });
    const added = await cms.releases.addItem({
      id: release.id as number,
      item: { collection: 'posts', id: post.id as number, action: 'publish' },
    });
    expect(added.items).toMatchObject([{ collection: 'posts', document: post.id, title: 'Next' }]);
    expect((await cms.releases.find()).totalDocs).toBe(1);
    await expect(cms.releases.publish({ id: release.id as number, overrideAccess: false })).rejects.toMatchObject({
      status: 401,
    });
    expect(await cms.releases.publish({ id: release.id as number })).toMatchObject({ status: 'published' });
    expect((await cms.findByID({ collection: 'posts', id: post.id as number })).title).toBe('Next');
    const revert = await cms.releases.revert({ id: release.id as number });
    expect(revert).toMatchObject({ title: 'Revert: Launch', revertOf: release.id, status: 'open' });
    const at = new Date(Date.now() + 3600_000);
    expect(await cms.releases.schedule({ id: revert.id as number, at })).toMatchObject({ status: 'scheduled' });
    expect(await cms.releases.unschedule({ id: revert.id as number })).toMatchObject({ status: 'open' });
    const removed = await cms.releases.removeItem({ id: revert.id as number, item: (revert.items as any)[0].id });
    expect(removed.items).toEqual([]);
    expect((await cms.releases.findByID({ id: revert.id as number })).items).toEqual([]);
  } finally {
    await cms.close();
  }
});

test('reads with release apply releases, and releases.preview gives a token for one release', async () => {
  const cms = await postsWithReleases(({ user }) => (user ? true : { status: { equals: 'published' } }));
  try {
    const { id, release } = await draftInRelease(cms);
    expect((await cms.find({ collection: 'posts', release: [release] })).docs.map((d) => d.title)).toEqual(['Next']);
    expect((await cms.findByID({ collection: 'posts', id, release })).title).toBe('Next');
    expect(await cms.count({ collection: 'posts', release: String(release) })).toEqual({ totalDocs: 1 });
    expect((await cms.findByID({ collection: 'posts', id })).title).toBe('Live');
    const { token, expiresAt } = await cms.releases.preview({ id: release });
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    // Issued without a user, the token reads as nobody signed in, under the read rule.
    const anonymous = { overrideAccess: false, release, preview: token };
    expect((await cms.findByID({ collection: 'posts', id, ...anonymous })).title).toBe('Next');
    await expect(cms.find({ collection: 'posts', release, overrideAccess: false })).rejects.toMatchObject({
      status: 401,
    });
  } finally {
    await cms.close();
  }
});

test('without releases on, a read with release is a 404', async () => {
  const dir = tempDir();
  const cms = await getCMS({
    config: {
      database: path.join(dir, 'cms.db'),
      collections: [{ slug: 'posts', drafts: true, fields: [{ name: 'title', type: 'text' }] }],
    },
    rootDir: dir,
    log: quietLog,
  });
  try {
    await expect(cms.find({ collection: 'posts', release: 1 })).rejects.toMatchObject({ status: 404 });
  } finally {
    await cms.close();
  }
});

test("an item's title is its pinned version's, in the default locale when localized", async () => {
  const dir = tempDir();
  const cms = await getCMS({
    config: {
      database: path.join(dir, 'cms.db'),
      releases: true,
      localization: { locales: ['en', 'de'], defaultLocale: 'en' },
      collections: [
        { slug: 'posts', drafts: true, fields: [{ name: 'title', type: 'text', localized: true }] },
        { slug: 'prices', drafts: true, admin: { useAsTitle: 'amount' }, fields: [{ name: 'amount', type: 'number' }] },
      ],
    },
    rootDir: dir,
    log: quietLog,
  });
  try {
    const post = await cms.create({ collection: 'posts', data: { title: 'Hello' }, draft: true });
    await cms.update({
      collection: 'posts',
      id: post.id as number,
      data: { title: 'Hallo' },
      locale: 'de',
      draft: true,
    });
    const price = await cms.create({ collection: 'prices', data: { amount: 42 }, draft: true });
    const release = (await cms.releases.create({ data: { title: 'Launch' } })).id as number;
    await cms.releases.addItem({
      id: release,
      item: { collection: 'posts', id: post.id as number, action: 'publish' },
    });
    const added = await cms.releases.addItem({
      id: release,
      item: { collection: 'prices', id: price.id as number, action: 'publish' },
    });
    expect((added.items as any[]).map((i) => i.title)).toEqual(['Hello', '42']);
  } finally {
    await cms.close();
  }
});

test('a rule that reads the request through a preview token marks the request, not a copy of it', async () => {
  let looked = 0;
  const cms = await postsWithReleases(({ req }) => {
    looked += req ? 1 : 0;
    return true;
  });
  try {
    const { release } = await draftInRelease(cms);
    const { token } = await cms.releases.preview({ id: release });
    // The response cache reads this mark on the request's own context to decide whether to keep the answer.
    const ctx = createContext(cms.cms, { overrideAccess: false, req: new Request('http://127.0.0.1/api/posts') });
    const found = await operations.find(ctx, { collection: 'posts', release: String(release), preview: token });
    expect(found.docs.map((d) => d.title)).toEqual(['Next']);
    expect(looked).toBeGreaterThan(0);
    expect(ctx.readsRequest).toBe(true);
  } finally {
    await cms.close();
  }
});

/** An instance with releases on and a drafts collection `posts` read under `read`. */
function postsWithReleases(read: AccessRule) {
  const dir = tempDir();
  return getCMS({
    config: {
      database: path.join(dir, 'cms.db'),
      releases: true,
      collections: [
        { slug: 'posts', drafts: true, access: { read }, fields: [{ name: 'title', type: 'text', required: true }] },
      ],
    },
    rootDir: dir,
    log: quietLog,
  });
}

/** A published post `Live` whose draft `Next` a new release publishes. */
async function draftInRelease(cms: Awaited<ReturnType<typeof postsWithReleases>>) {
  const post = await cms.create({ collection: 'posts', data: { title: 'Live', status: 'published' } });
  const id = post.id as number;
  await cms.update({ collection: 'posts', id, data: { title: 'Next' }, draft: true });
  const release = (await cms.releases.create({ data: { title: 'Launch' } })).id as number;
  await cms.releases.addItem({ id: release, item: { collection: 'posts', id, action: 'publish' } });
  return { id, release };
}
