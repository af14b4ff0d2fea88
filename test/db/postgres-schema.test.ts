// Runs once (on the SQLite pass): always on PostgreSQL.
/**
 * A config's tables on PostgreSQL (docs/postgres.md): the diff through drizzle-kit's PostgreSQL API, written
 * as a migration file under migrations/postgres/, applied under the lock on a fresh database, then
 * re-diffed as no change; the columns hold what the store and dialect bind and read.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { listMigrationFiles, writeMigrationFile } from '../../src/db/schema-migrate.ts';
import { applyPostgresMigrationFiles } from '../../src/db/postgres/migrate.ts';
import { postgresTables } from '../../src/db/postgres/config-tables.ts';
import { diffPostgres, type PostgresSnapshot } from '../../src/db/postgres/schema-diff.ts';
import { createPostgresStore, type PostgresStore } from '../../src/db/postgres/store.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';

const NOW = '2026-11-23T00:00:00.000Z';
let db: TestDatabase;
let store: PostgresStore;
let root: string;
let dir: string;

const baseConfig: UserConfig = {
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  webhooks: [{ url: 'http://127.0.0.1:9/hook' }],
  collections: [
    {
      slug: 'blog-posts',
      drafts: true,
      fields: [
        { name: 'title', type: 'text', localized: true },
        { name: 'slug', type: 'text', unique: true },
        { name: 'views', type: 'number' },
        { name: 'featured', type: 'checkbox' },
        { name: 'tags', type: 'text', hasMany: true },
        { name: 'rows', type: 'array', fields: [{ name: 'label', type: 'text' }] },
        { name: 'seo', type: 'group', fields: [{ name: 'description', type: 'text' }] },
        { name: 'extra', type: 'json' },
        { name: 'publishedAt', type: 'date', index: true },
        { name: 'section', type: 'text' },
      ],
      indexes: [{ fields: ['section', 'views'], unique: true }],
    },
  ],
  globals: [{ slug: 'site', fields: [{ name: 'name', type: 'text' }] }],
};
const config = (input: UserConfig) =>
  sanitizeConfig(input, { configPath: path.join(root, 'cms.config.ts'), rootDir: root });
const newestSnapshot = (): PostgresSnapshot | null => {
  const files = listMigrationFiles(dir);
  return files.length ? JSON.parse(fs.readFileSync(files[files.length - 1].snapshotFile, 'utf8')) : null;
};
const applyFiles = () =>
  applyPostgresMigrationFiles(
    store.sql,
    listMigrationFiles(dir).map((f) => ({ name: f.name, sql: fs.readFileSync(f.file, 'utf8') })),
    NOW,
  );

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-pg-schema-'));
  dir = path.join(root, 'migrations', 'postgres');
  db = await createTestDatabase();
  store = await createPostgresStore(db.url, { poolSize: 3 });
  await store.applySystemMigrations();
});

afterAll(async () => {
  await store?.close();
  await db?.drop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('config tables on PostgreSQL', () => {
  test('the first diff creates every table; applied, the same config diffs as no change', async () => {
    const tables = postgresTables(config(baseConfig));
    const change = await diffPostgres(tables, null);
    expect(change!.destructive).toEqual([]);
    expect(change!.statements.some((s) => s.includes('CREATE TABLE "blog-posts"'))).toBe(true);
    writeMigrationFile(dir, 'initial', change!, ['made by the test']);
    expect(await applyFiles()).toEqual(['0000_initial']);

    expect(await diffPostgres(postgresTables(config(baseConfig)), newestSnapshot())).toBeNull();
    // Not only the fingerprint: drizzle-kit itself finds nothing to do against the database's snapshot.
    const forced = await diffPostgres(tables, { ...newestSnapshot()!, fingerprint: 'other' });
    expect(forced!.statements).toEqual([]);
  });

  test('columns: ids from cms_next_id, bigint integers, double precision numbers, jsonb for JSON-stored fields, text else', async () => {
    const columns = await store.all<{ table: string; column: string; type: string; fallback: string | null }>(
      `SELECT table_name AS "table", column_name AS "column", data_type AS "type", column_default AS "fallback" FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name IN ('blog-posts', '_global_site', 'webhook-deliveries') ORDER BY table_name, ordinal_position`,
    );
    const of = (table: string) =>
      Object.fromEntries(columns.filter((c) => c.table === table).map((c) => [c.column, c.type]));
    expect(of('blog-posts')).toEqual({
      id: 'integer',
      title: 'jsonb',
      slug: 'text',
      views: 'double precision',
      featured: 'bigint',
      tags: 'jsonb',
      rows: 'jsonb',
      seo: 'jsonb',
      extra: 'jsonb',
      publishedAt: 'text',
      section: 'text',
      status: 'text',
      createdAt: 'text',
      updatedAt: 'text',
    });
    expect(of('_global_site')).toEqual({ id: 'integer', name: 'text', createdAt: 'text', updatedAt: 'text' });
    expect(of('webhook-deliveries')).toMatchObject({ id: 'text', nextAttemptAt: 'bigint', createdAt: 'bigint' });
    expect(
      columns.filter((c) => c.fallback?.startsWith('cms_next_id(')).map((c) => `${c.table}.${c.column}: ${c.fallback}`),
    ).toEqual([`_global_site.id: cms_next_id('_global_site'::text)`, `blog-posts.id: cms_next_id('blog-posts'::text)`]);
  });

  test("rows written the callers' way read back with the same values, and unique indexes name their field", async () => {
    const d = store.dialect;
    const insert = (row: Record<string, unknown>) => {
      const columns = Object.keys(row);
      return store.insert(
        `INSERT INTO "blog-posts" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        Object.values(row),
      );
    };
    const row = {
      title: d.encodeJSON({ en: 'Hello', de: 'Hallo' }),
      slug: 'hello',
      views: 1.5,
      featured: d.boolean(true),
      tags: d.encodeJSON(['a', 'b']),
      rows: d.encodeJSON([{ label: 'x' }]),
      seo: d.encodeJSON({ description: 'd' }),
      extra: d.encodeJSON(7),
      section: 's',
      status: 'published',
      createdAt: NOW,
      updatedAt: NOW,
    };
    expect(await insert(row)).toBe(1);
    const read = await store.get<Record<string, unknown>>('SELECT * FROM "blog-posts" WHERE "id" = ?', [1]);
    expect(read).toMatchObject({ id: 1, slug: 'hello', views: 1.5, featured: 1, section: 's', publishedAt: null });
    expect(['title', 'tags', 'rows', 'seo', 'extra'].map((c) => d.decodeJSON(read![c]))).toEqual([
      { en: 'Hello', de: 'Hallo' },
      ['a', 'b'],
      [{ label: 'x' }],
      { description: 'd' },
      7,
    ]);
    const fail = (values: Record<string, unknown>) =>
      insert({ ...row, ...values }).then(
        () => null,
        (error) => d.uniqueViolation(error),
      );
    expect(await fail({ section: 'other' })).toBe('slug');
    expect(await fail({ slug: 'second' })).toBe('section');
    // The failed inserts took no id: the next one is 2, as on SQLite (docs/postgres.md).
    expect(await insert({ ...row, slug: 'second', section: 'other' })).toBe(2);
    await expect(
      store.transaction(async (tx) => {
        await tx.insert('INSERT INTO "blog-posts" ("slug", "section", "createdAt", "updatedAt") VALUES (?, ?, ?, ?)', [
          'third',
          'third',
          NOW,
          NOW,
        ]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await insert({ ...row, slug: 'third', section: 'third' })).toBe(3);
  });

  test('an added field is one additive statement; a dropped field is refused as destructive', async () => {
    const added = structuredClone(baseConfig);
    added.collections![0].fields.push({ name: 'subtitle', type: 'text', localized: true });
    const change = await diffPostgres(postgresTables(config(added)), newestSnapshot());
    expect(change!.destructive).toEqual([]);
    expect(change!.statements).toEqual(['ALTER TABLE "blog-posts" ADD COLUMN "subtitle" jsonb;']);
    writeMigrationFile(dir, 'subtitle', change!);
    expect(await applyFiles()).toEqual(['0001_subtitle']);
    expect(await diffPostgres(postgresTables(config(added)), newestSnapshot())).toBeNull();

    const dropped = await diffPostgres(postgresTables(config(baseConfig)), newestSnapshot());
    expect(dropped!.destructive).toEqual(['column "blog-posts"."subtitle" would be dropped']);
    expect(dropped!.statements).toEqual([]);
  });
});
