/** The Local API (docs/typescript.md): the same operations in-process; access skipped unless asked for. */
import { describe, expect, test } from 'bun:test';
import path from 'node:path';
import fs from 'node:fs';
import { getCMS } from '../../src/local.ts';
import { quietLog, tempDir } from '../harness.ts';

describe('Local API', () => {
  test('create, find, findByID, update, delete, globals; access only with overrideAccess: false', async () => {
    const dir = tempDir();
    const cms = await getCMS({
      config: {
        database: path.join(dir, 'cms.db'),
        collections: [
          {
            slug: 'notes',
            fields: [
              { name: 'text', type: 'text', required: true },
              { name: 'secret', type: 'text', hidden: true },
            ],
          },
        ],
        globals: [{ slug: 'site', fields: [{ name: 'name', type: 'text' }] }],
      },
      rootDir: dir,
      log: quietLog,
    });
    const created = await cms.create({ collection: 'notes', data: { text: 'hello', secret: 's' } });
    expect(created).toMatchObject({ id: 1, text: 'hello' });
    expect(created.secret).toBeUndefined();
    expect((await cms.findByID({ collection: 'notes', id: 1, showHiddenFields: true })).secret).toBe('s');
    expect((await cms.find({ collection: 'notes', where: { text: { equals: 'hello' } } })).totalDocs).toBe(1);
    await expect(cms.find({ collection: 'notes', overrideAccess: false })).rejects.toMatchObject({ status: 401 });
    expect((await cms.update({ collection: 'notes', id: 1, data: { text: 'changed' } })).text).toBe('changed');
    await expect(cms.create({ collection: 'notes', data: {} })).rejects.toMatchObject({ status: 400, field: 'text' });
    await cms.updateGlobal({ slug: 'site', data: { name: 'Site' } });
    expect((await cms.findGlobal({ slug: 'site' })).name).toBe('Site');
    await cms.delete({ collection: 'notes', id: 1 });
    expect((await cms.find({ collection: 'notes' })).totalDocs).toBe(0);
    await cms.close();
  });

  test("Payload's Local API forms: count, select, populate, pagination: false, update and delete by where", async () => {
    const dir = tempDir();
    const cms = await getCMS({
      config: {
        database: path.join(dir, 'cms.db'),
        collections: [
          {
            slug: 'notes',
            fields: [
              { name: 'text', type: 'text' },
              { name: 'n', type: 'number' },
              { name: 'by', type: 'relationship', relationTo: 'users' },
              { name: 'secret', type: 'text', hidden: true },
            ],
          },
        ],
      },
      rootDir: dir,
      log: quietLog,
    });
    const user = await cms.create({
      collection: 'users',
      data: { email: 'a@example.com', password: 'password123', name: 'A', role: 'admin' },
    });
    for (let n = 1; n <= 12; n++) await cms.create({ collection: 'notes', data: { text: `t${n}`, n, by: user.id } });
    expect(await cms.count({ collection: 'notes', where: { n: { greater_than: 10 } } })).toEqual({ totalDocs: 2 });
    const shaped = await cms.find({
      collection: 'notes',
      where: { n: { equals: 1 } },
      select: { text: true, by: true },
      populate: { users: { name: true } },
    });
    expect(shaped.docs[0]).toEqual({ id: 1, text: 't1', by: { id: user.id, name: 'A' } });
    expect(await cms.findByID({ collection: 'notes', id: 2, select: { n: false, by: false } })).toMatchObject({
      id: 2,
      text: 't2',
    });
    expect('n' in (await cms.findByID({ collection: 'notes', id: 2, select: { n: false } }))).toBe(false);
    // Select goes through the same query rights as where: with access asked for, a hidden field is unknown.
    await expect(
      cms.find({ collection: 'notes', overrideAccess: false, user: user as never, select: { secret: true } }),
    ).rejects.toMatchObject({ status: 400, field: 'secret' });
    expect((await cms.find({ collection: 'notes', pagination: false })).docs).toHaveLength(12);
    const updated = await cms.update({ collection: 'notes', where: { n: { less_than: 3 } }, data: { text: 'low' } });
    expect(updated.docs.map((d) => d.text)).toEqual(['low', 'low']);
    const removed = await cms.delete({ collection: 'notes', where: { text: { equals: 'low' } } });
    expect(removed.errors).toEqual([]);
    expect((await cms.count({ collection: 'notes' })).totalDocs).toBe(10);
    await cms.close();
  });

  test('getCMS takes a config file path', async () => {
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, 'cms.config.ts'),
      `export default { collections: [{ slug: 'things', fields: [{ name: 'n', type: 'number' }] }] }\n`,
    );
    const cms = await getCMS({ config: path.join(dir, 'cms.config.ts'), log: quietLog });
    expect((await cms.create({ collection: 'things', data: { n: 2 } })).n).toBe(2);
    expect(fs.existsSync(path.join(dir, 'data/cms.db'))).toBe(true);
    await cms.close();
  });
});

describe('Local API: drafts, versions, scheduling, preview', () => {
  test('the same operations as the REST routes', async () => {
    const dir = tempDir();
    const cms = await getCMS({
      config: {
        database: path.join(dir, 'cms.db'),
        collections: [{ slug: 'posts', drafts: true, fields: [{ name: 'title', type: 'text' }] }],
      },
      rootDir: dir,
      log: quietLog,
    });
    const post = await cms.create({ collection: 'posts', data: { title: 'One', status: 'published' } });
    await cms.update({ collection: 'posts', id: post.id as number, data: { title: 'Two' }, draft: true });
    expect((await cms.findByID({ collection: 'posts', id: post.id as number })).title).toBe('One');
    const preview = await cms.preview({ collection: 'posts', id: post.id as number, data: { title: 'Three' } });
    expect(preview.doc.title).toBe('Three');
    await cms.discardDraft({ collection: 'posts', id: post.id as number });
    const versions = await cms.findVersions({ collection: 'posts', id: post.id as number });
    expect(versions.totalDocs).toBeGreaterThanOrEqual(1);
    const job = await cms.schedule({
      collection: 'posts',
      id: post.id as number,
      action: 'unpublish',
      at: new Date(Date.now() + 3_600_000),
    });
    expect((await cms.listScheduled({ collection: 'posts', id: post.id as number })).docs).toHaveLength(1);
    await cms.cancelScheduled({ collection: 'posts', id: post.id as number, job: job.id as number });
    expect((await cms.listScheduled({ collection: 'posts', id: post.id as number })).docs).toHaveLength(0);
    const unpublished = await cms.unpublish({ collection: 'posts', id: post.id as number });
    expect(unpublished.status).toBe('draft');
    const restored = await cms.restoreVersion({
      collection: 'posts',
      id: post.id as number,
      version: versions.docs[versions.docs.length - 1].id as number,
    });
    expect(restored.title).toBe('One');
    await cms.close();
  });
});
