/**
 * Kept counts (docs/documents.md, "How totals are counted"): a list's `totalDocs` and a count are kept
 * while nothing they count changed, and are exact after every way a change can reach the database: a
 * create, an update of a filtered field, a delete, a publish and an unpublish, a move to the trash and back,
 * a write in one locale, a change of a related document, and a write by another process (SQLite) or
 * instance (PostgreSQL). Where the engine's triggers count rows (SQLite), a count kept across creates is
 * brought up to date from the rows added since, and every other write in between still counts it again.
 * Runs on the engine of the suite's pass.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';
import { localAPI } from '../../src/local.ts';
import { ensureChangeTriggers } from '../../src/db/change-triggers.ts';

const ROOT = path.join(import.meta.dir, '../..');
const CONFIG = `export default {
  localization: { locales: ['en', 'fr'], defaultLocale: 'en' },
  collections: [
    { slug: 'authors', access: { read: () => true, create: () => true, update: () => true }, fields: [{ name: 'name', type: 'text' }] },
    {
      slug: 'notes', trash: { keepDays: 30 },
      access: { read: () => true, create: () => true, update: () => true, delete: () => true },
      fields: [
        { name: 'tag', type: 'text' },
        { name: 'label', type: 'text', localized: true },
        { name: 'author', type: 'relationship', relationTo: 'authors' },
      ],
    },
    {
      slug: 'posts', drafts: true,
      access: { read: ({ user }: any) => (user ? true : { status: { equals: 'published' } }), create: () => true, update: () => true },
      fields: [{ name: 'title', type: 'text' }],
    },
  ],
};
`;

/** Another process writing to the same database through the Local API (on PostgreSQL: another instance). */
const CHILD = `
const [configFile, database, update] = process.argv.slice(2);
const { getCMS } = await import(${JSON.stringify(path.join(ROOT, 'src/local.ts'))});
const cms = await getCMS({ config: configFile, database, migrate: false });
if (update) await cms.update({ collection: 'notes', id: Number(update), data: { tag: 'b' } });
else await cms.create({ collection: 'notes', data: { tag: 'a' } });
await cms.close();
`;

/** The child above: a create, or an update of `update` to tag `b`. */
function inAnotherProcess(update?: number) {
  const child = Bun.spawnSync(
    [
      process.execPath,
      path.join(dir, 'child.ts'),
      path.join(dir, 'cms.config.ts'),
      t.database,
      ...(update === undefined ? [] : [String(update)]),
    ],
    { cwd: dir, stderr: 'pipe' },
  );
  if (child.exitCode !== 0) throw new Error(`child failed: ${child.stderr.toString()}`);
}

let t: TestServer;
let dir: string;
/** Untyped: the collections come from a config file. */
let cms: any;
const total = async (where: Record<string, unknown> = { tag: { equals: 'a' } }, locale?: string) => {
  const listed = (await cms.find({ collection: 'notes', where, limit: 1, locale })).totalDocs;
  const counted = (await cms.count({ collection: 'notes', where, locale })).totalDocs;
  expect(counted).toBe(listed);
  return listed;
};

beforeAll(async () => {
  dir = tempDir('cms-kept-counts-');
  fs.writeFileSync(path.join(dir, 'cms.config.ts'), CONFIG);
  fs.writeFileSync(path.join(dir, 'child.ts'), CHILD);
  t = await startTestServer((await import(path.join(dir, 'cms.config.ts'))).default, { dir });
  cms = localAPI(t.cms);
  for (const tag of ['a', 'a', 'b']) await cms.create({ collection: 'notes', data: { tag, label: `${tag} en` } });
});
afterAll(() => t?.stop());

describe('a count is kept while nothing changed', () => {
  test('a row written behind the change counters is not seen until a counted write', async () => {
    expect(await total()).toBe(2);
    // A row slipped in and the counter put back as it was: only a kept count can miss it.
    const [{ version }] = await t.cms.store.all<{ version: number }>(
      `SELECT "version" FROM "_cms_changes" WHERE "name" = 'notes'`,
    );
    await t.cms.store.run(
      `INSERT INTO "notes" ("id", "tag", "label", "createdAt", "updatedAt") VALUES (9000, 'a', '{}', ?, ?)`,
      [new Date().toISOString(), new Date().toISOString()],
    );
    await t.cms.store.run(`UPDATE "_cms_changes" SET "version" = ? WHERE "name" = 'notes'`, [version]);
    expect(await total()).toBe(2);
    // Any counted write of the table counts again, and sees the slipped row too.
    await cms.create({ collection: 'notes', data: { tag: 'b' } });
    expect(await total()).toBe(3);
    await cms.delete({ collection: 'notes', id: 9000, trash: true });
    expect(await total()).toBe(2);
  });
});

const now = () => new Date().toISOString();
/** A row written by hand (its triggers count it), `id` given or not. */
const byHand = (tag: string, id?: number) =>
  t.cms.store.run(
    `INSERT INTO "notes" (${id === undefined ? '' : '"id", '}"tag", "label", "createdAt", "updatedAt") VALUES (${id === undefined ? '' : '?, '}?, '{}', ?, ?)`,
    [...(id === undefined ? [] : [id]), tag, now(), now()],
  );
const newestId = async () => Number((await t.cms.store.get<{ n: number }>('SELECT max("id") AS "n" FROM "notes"'))!.n);

const version = async () =>
  Number(
    (await t.cms.store.get<{ v: number }>(`SELECT "version" AS "v" FROM "_cms_changes" WHERE "name" = 'notes'`))!.v,
  );

describe('the change counters', () => {
  test('move by one per row written, whatever the statement', async () => {
    const before = await version();
    await t.cms.store.run(
      `INSERT INTO "notes" ("tag", "label", "createdAt", "updatedAt") VALUES ('c', '{}', ?, ?), ('c', '{}', ?, ?)`,
      [now(), now(), now(), now()],
    );
    expect(await version()).toBe(before + 2);
    await t.cms.store.run(`UPDATE "notes" SET "tag" = 'd' WHERE "tag" = 'c'`);
    expect(await version()).toBe(before + 4);
    await t.cms.store.run(`UPDATE "notes" SET "tag" = 'e' WHERE "tag" = 'nothing'`);
    expect(await version()).toBe(before + 4);
    await t.cms.store.run(`DELETE FROM "notes" WHERE "tag" = 'd'`);
    expect(await version()).toBe(before + 6);
  });

  test('a PostgreSQL table counting statements (made by an older version) counts rows after a start', async () => {
    if (t.cms.store.engine !== 'postgres') return;
    const triggers = async () =>
      (
        await t.cms.store.all<{ name: string }>(
          `SELECT t.tgname AS "name" FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relname = 'notes' AND NOT t.tgisinternal ORDER BY 1`,
        )
      ).map((r) => r.name);
    const made = await triggers();
    for (const name of made) await t.cms.store.exec(`DROP TRIGGER "${name}" ON "notes"`);
    await t.cms.store.exec(
      `CREATE TRIGGER "_cms_changes" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "notes" FOR EACH STATEMENT EXECUTE FUNCTION cms_count_change('notes')`,
    );
    await ensureChangeTriggers(t.cms.config, t.cms.store);
    expect(await triggers()).toEqual(made);
    expect(made).not.toContain('_cms_changes');
  });
});

describe('a count kept across creates', () => {
  test('grows by the created rows the filter lets through, and by no others', async () => {
    const before = await total();
    await cms.create({ collection: 'notes', data: { tag: 'a' } });
    await cms.create({ collection: 'notes', data: { tag: 'b' } });
    await byHand('a');
    expect(await total()).toBe(before + 2);
    expect(await total({ tag: { equals: 'b' } })).toBeGreaterThan(0);
    await Promise.all([1, 2, 3].map(() => cms.create({ collection: 'notes', data: { tag: 'a' } })));
    expect(await total()).toBe(before + 5);
  });

  test('an update, a removal or a row below the newest id between creates counts again', async () => {
    const before = await total();
    const old = await cms.create({ collection: 'notes', data: { tag: 'a' } });
    expect(await total()).toBe(before + 1);
    // The same number of writes as rows added, but one of them an update of an older row.
    await cms.update({ collection: 'notes', id: old.id as number, data: { tag: 'b' } });
    await cms.create({ collection: 'notes', data: { tag: 'a' } });
    expect(await total()).toBe(before + 1);
    // A removal for good, then a create.
    await cms.delete({ collection: 'notes', id: old.id as number });
    await cms.create({ collection: 'notes', data: { tag: 'a' } });
    expect(await total()).toBe(before + 2);
    // A row added by hand below the newest id (the walk above the kept id does not see it).
    const newest = await newestId();
    const gap = newest - 1;
    await t.cms.store.run('DELETE FROM "notes" WHERE "id" = ?', [gap]);
    const afterGap = await total();
    await byHand('a', gap);
    expect(await total()).toBe(afterGap + 1);
    // A created row updated before the next count: two writes, one row added.
    const made = await cms.create({ collection: 'notes', data: { tag: 'b' } });
    await cms.update({ collection: 'notes', id: made.id as number, data: { tag: 'a' } });
    expect(await total()).toBe(afterGap + 2);
  });

  test('a collection with drafts: creates and draft saves of new documents', async () => {
    const admin = await t.user('admin');
    const listed = async () => (await t.request('GET', '/posts?limit=1', { token: admin.token })).body.totalDocs;
    const stored = async () => Number((await t.cms.store.get<{ n: number }>('SELECT count(*) AS "n" FROM "posts"'))!.n);
    expect(await listed()).toBe(await stored());
    await cms.create({ collection: 'posts', data: { title: 'live' } });
    const draft = await cms.create({ collection: 'posts', data: { title: 'draft' }, draft: true });
    expect(await listed()).toBe(await stored());
    await cms.update({ collection: 'posts', id: draft.id as number, data: { title: 'again' }, draft: true });
    await cms.create({ collection: 'posts', data: { title: 'more' } });
    expect(await listed()).toBe(await stored());
  });

  test('only the rows above the kept id are walked', async () => {
    const before = await total();
    // A row slipped in below the newest id and the counter put back: a create then moves the counter by
    // one and adds one row above the kept id, so the count grows by that row alone.
    const newest = await newestId();
    await t.cms.store.run('DELETE FROM "notes" WHERE "id" = ?', [newest - 1]);
    const afterGap = await total();
    const counters = await t.cms.store.all<{ name: string; version: number }>(
      `SELECT "name", "version" FROM "_cms_changes" WHERE "name" IN ('notes', 'notes:rows')`,
    );
    await byHand('a', newest - 1);
    for (const { name, version } of counters)
      await t.cms.store.run(`UPDATE "_cms_changes" SET "version" = ? WHERE "name" = ?`, [version, name]);
    await cms.create({ collection: 'notes', data: { tag: 'a' } });
    expect(await total()).toBe(afterGap + 1);
    // Any other write counts again, and sees the slipped row.
    await t.cms.store.run(`UPDATE "notes" SET "tag" = 'a' WHERE "id" = ?`, [newest - 1]);
    expect(await total()).toBe(afterGap + 2);
    expect(before).toBeGreaterThan(0);
  });
});

/** A row slipped in below the newest id behind both counters: seen only by a count made again. */
async function slipBehindCounters(tag: string): Promise<number> {
  const newest = await newestId();
  await t.cms.store.run('DELETE FROM "notes" WHERE "id" = ?', [newest - 1]);
  // Counted without the row.
  await total();
  const counters = await t.cms.store.all<{ name: string; version: number }>(
    `SELECT "name", "version" FROM "_cms_changes" WHERE "name" IN ('notes', 'notes:rows')`,
  );
  await byHand(tag, newest - 1);
  for (const { name, version } of counters)
    await t.cms.store.run(`UPDATE "_cms_changes" SET "version" = ? WHERE "name" = ?`, [version, name]);
  return newest - 1;
}

describe('a count kept across updates and removals', () => {
  test('moves by what each update, trash move and removal did to the filter, without counting again', async () => {
    const made = await cms.create({ collection: 'notes', data: { tag: 'b' } });
    const id = made.id as number;
    const slipped = await slipBehindCounters('a');
    const before = await total();
    // Into the filter, out of it, a write that keeps it in: the slipped row stays unseen throughout.
    await cms.update({ collection: 'notes', id, data: { tag: 'a' } });
    expect(await total()).toBe(before + 1);
    await cms.update({ collection: 'notes', id, data: { label: 'still a' } });
    expect(await total()).toBe(before + 1);
    await cms.delete({ collection: 'notes', id });
    expect(await total()).toBe(before);
    await cms.update({ collection: 'notes', id, data: { deletedAt: null }, trash: true });
    expect(await total()).toBe(before + 1);
    // Creates, an update of a new row and a removal of one, between two lists.
    const fresh = await cms.create({ collection: 'notes', data: { tag: 'b' } });
    const gone = await cms.create({ collection: 'notes', data: { tag: 'a' } });
    await cms.update({ collection: 'notes', id: fresh.id as number, data: { tag: 'a' } });
    await cms.delete({ collection: 'notes', id: gone.id as number, trash: true });
    await cms.delete({ collection: 'notes', id, trash: true });
    expect(await total()).toBe(before + 1);
    // Two kept filters of the collection move with one update.
    const bs = await total({ tag: { equals: 'b' } });
    await cms.update({ collection: 'notes', id: fresh.id as number, data: { tag: 'b' } });
    expect([await total(), await total({ tag: { equals: 'b' } })]).toEqual([before, bs + 1]);
    // A write not noted (SQL by hand) counts again, and sees the slipped row.
    await t.cms.store.run(`UPDATE "notes" SET "tag" = 'b' WHERE "id" = ?`, [fresh.id]);
    expect(await total()).toBe(before + 1);
    expect(await cms.findByID({ collection: 'notes', id: slipped })).toMatchObject({ tag: 'a' });
  });

  test('a filter no list asked for during many updates is counted again', async () => {
    const made = await cms.create({ collection: 'notes', data: { tag: 'b' } });
    await slipBehindCounters('a');
    const before = await total();
    // A few updates are followed: the slipped row stays unseen.
    for (let i = 0; i < 3; i++)
      await cms.update({ collection: 'notes', id: made.id as number, data: { label: `${i}` } });
    expect(await total()).toBe(before);
    // A bulk of them with no list between: no longer followed, so the next list counts, and sees it.
    for (let i = 0; i < 300; i++)
      await cms.update({ collection: 'notes', id: made.id as number, data: { label: `${i}` } });
    expect(await total()).toBe(before + 1);
  });

  test('a write that fails leaves the kept count as it was', async () => {
    const made = await cms.create({ collection: 'notes', data: { tag: 'a' } });
    const before = await total();
    const failed = await cms
      .update({ collection: 'notes', id: made.id as number, data: { tag: 'b', author: 999999 } })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(await total()).toBe(before);
    await cms.update({ collection: 'notes', id: made.id as number, data: { tag: 'b' } });
    expect(await total()).toBe(before - 1);
  });

  test('a filter that reads other rows is counted again after an update', async () => {
    const author = await cms.create({ collection: 'authors', data: { name: 'Lin' } });
    const byLin = { 'author.name': { equals: 'Lin' } };
    const made = await cms.create({ collection: 'notes', data: { tag: 'r' } });
    expect(await total(byLin)).toBe(0);
    await cms.update({ collection: 'notes', id: made.id as number, data: { author: author.id } });
    expect(await total(byLin)).toBe(1);
  });
});

describe('every change makes the next total exact', () => {
  test('create, update of the filtered field, delete for good', async () => {
    const before = await total();
    const made = await cms.create({ collection: 'notes', data: { tag: 'a' } });
    expect(await total()).toBe(before + 1);
    await cms.update({ collection: 'notes', id: made.id as number, data: { tag: 'b' } });
    expect(await total()).toBe(before);
    await cms.update({ collection: 'notes', id: made.id as number, data: { tag: 'a' } });
    expect(await total()).toBe(before + 1);
    await cms.delete({ collection: 'notes', id: made.id as number, trash: true });
    expect(await total()).toBe(before);
  });

  test('to the trash and back', async () => {
    const before = await total();
    const made = await cms.create({ collection: 'notes', data: { tag: 'a' } });
    const inTrash = () => cms.count({ collection: 'notes', where: { tag: { equals: 'a' } }, trash: true });
    const withTrash = (await inTrash()).totalDocs;
    await cms.delete({ collection: 'notes', id: made.id as number });
    expect(await total()).toBe(before);
    expect((await inTrash()).totalDocs).toBe(withTrash);
    await cms.update({ collection: 'notes', id: made.id as number, data: { deletedAt: null }, trash: true });
    expect(await total()).toBe(before + 1);
  });

  test('a write in one locale changes only that locale’s count', async () => {
    const made = await cms.create({ collection: 'notes', data: { tag: 'l', label: 'english' } });
    const id = made.id as number;
    await cms.update({ collection: 'notes', id, locale: 'fr', data: { label: 'français' } });
    const label = (value: string) => ({ label: { equals: value } });
    expect(await total(label('english'), 'en')).toBe(1);
    expect(await total(label('français'), 'fr')).toBe(1);
    await cms.update({ collection: 'notes', id, locale: 'fr', data: { label: 'autre' } });
    expect(await total(label('français'), 'fr')).toBe(0);
    expect(await total(label('english'), 'en')).toBe(1);
    await cms.update({ collection: 'notes', id, locale: 'en', data: { label: 'other' } });
    expect(await total(label('english'), 'en')).toBe(0);
    expect(await total(label('autre'), 'fr')).toBe(1);
  });

  test('a change of a related document changes a count filtered through it', async () => {
    const author = await cms.create({ collection: 'authors', data: { name: 'Ada' } });
    await cms.create({ collection: 'notes', data: { tag: 'r', author: author.id } });
    const byAda = { 'author.name': { equals: 'Ada' } };
    expect(await total(byAda)).toBe(1);
    await cms.update({ collection: 'authors', id: author.id as number, data: { name: 'Grace' } });
    expect(await total(byAda)).toBe(0);
  });

  test('publish, a draft save and unpublish, for anonymous and logged-in lists', async () => {
    const admin = await t.user('admin');
    const published = async () => (await t.request('GET', '/posts?limit=1')).body.totalDocs;
    const all = async () => (await t.request('GET', '/posts?limit=1', { token: admin.token })).body.totalDocs;
    const [p0, a0] = [await published(), await all()];
    const made = await cms.create({ collection: 'posts', data: { title: 'one' }, draft: true });
    expect([await published(), await all()]).toEqual([p0, a0 + 1]);
    await cms.update({ collection: 'posts', id: made.id as number, data: { status: 'published' } });
    expect([await published(), await all()]).toEqual([p0 + 1, a0 + 1]);
    await cms.update({ collection: 'posts', id: made.id as number, data: { title: 'two' }, draft: true });
    expect([await published(), await all()]).toEqual([p0 + 1, a0 + 1]);
    await cms.update({ collection: 'posts', id: made.id as number, data: { status: 'draft' } });
    expect([await published(), await all()]).toEqual([p0, a0 + 1]);
  });

  test('a write by another process or instance on the same database', async () => {
    const before = await total();
    inAnotherProcess();
    expect(await total()).toBe(before + 1);
    // An update there, between updates here: the counter shows one more row written than were noted.
    const [one, two] = await Promise.all([1, 2].map(() => cms.create({ collection: 'notes', data: { tag: 'a' } })));
    expect(await total()).toBe(before + 3);
    await cms.update({ collection: 'notes', id: one.id as number, data: { label: 'here' } });
    inAnotherProcess(two.id as number);
    await cms.update({ collection: 'notes', id: one.id as number, data: { label: 'here again' } });
    expect(await total()).toBe(before + 2);
  });
});
