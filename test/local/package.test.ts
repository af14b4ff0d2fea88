/**
 * The Local API as a package (docs/typescript.md): another Bun project imports `getCMS` from 'cms' (package.json
 * `exports`), and `getCMS({ migrate: false })` uses a database as it is: a pending change is an error
 * naming `cms migrate`, and neither the schema nor the migration files change.
 */
import { describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import fs from 'node:fs';
import path from 'node:path';
import { getCMS } from '../../src/local.ts';
import { quietLog } from '../harness.ts';
import { cli, consumerProject, run } from '../support/consumer-project.ts';

const EXPORT_SCRIPT = `
import { getCMS } from 'cms';
import type { CMSTypes } from './cms-types.ts';

const cms = await getCMS<CMSTypes>({ config: './cms.config.ts', migrate: false });
const { docs } = await cms.find({ collection: 'posts', pagination: false, locale: 'all', sort: 'createdAt' });
console.log(JSON.stringify(docs.map((post) => post.title)));
await cms.close();
`;

/** The schema as SQLite records it, and the migration files: what migrate: false must leave alone. */
function schemaOf(dir: string) {
  const db = new Database(path.join(dir, 'cms.db'), { readonly: true });
  const tables = db.query('SELECT name, sql FROM sqlite_master ORDER BY name').all();
  db.close();
  const migrations = fs.existsSync(path.join(dir, 'migrations'))
    ? fs.readdirSync(path.join(dir, 'migrations'), { recursive: true }).sort()
    : [];
  return { tables, migrations };
}

describe('Local API as a package', () => {
  test("a consumer project's export script imports getCMS from 'cms' and reads every document", async () => {
    const dir = consumerProject();
    const cms = await getCMS({ config: path.join(dir, 'cms.config.ts'), log: quietLog });
    for (let i = 1; i <= 3; i++) await cms.create({ collection: 'posts', data: { title: `Post ${i}` } });
    await cms.update({ collection: 'posts', id: 1, data: { title: 'Beitrag 1' }, locale: 'de' });
    await cms.close();
    expect(cli(['generate:types', '--config', path.join(dir, 'cms.config.ts')], dir).code).toBe(0);
    fs.writeFileSync(path.join(dir, 'export.ts'), EXPORT_SCRIPT);

    const result = run([process.execPath, 'export.ts'], dir);
    expect(result).toMatchObject({ code: 0 });
    expect(JSON.parse(result.out)).toEqual([{ en: 'Post 1', de: 'Beitrag 1' }, { en: 'Post 2' }, { en: 'Post 3' }]);
  });

  test('migrate: false refuses a missing database without creating it', async () => {
    const dir = consumerProject();
    const error = await getCMS({ config: path.join(dir, 'cms.config.ts'), migrate: false, log: quietLog }).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toContain('does not exist');
    expect((error as Error).message).toContain('`cms migrate`');
    expect(fs.existsSync(path.join(dir, 'cms.db'))).toBe(false);
  });

  test('migrate: false never changes the schema: a config change or an unapplied file is an error naming cms migrate', async () => {
    const dir = consumerProject();
    const first = path.join(dir, 'cms.config.ts');
    // The same project one field later, in its own file (an imported config module is cached per path).
    const later = path.join(dir, 'cms.later.config.ts');
    fs.writeFileSync(
      later,
      fs
        .readFileSync(first, 'utf8')
        .replace(
          `{ name: 'name', type: 'text', required: true }`,
          `{ name: 'name', type: 'text', required: true }, { name: 'slug', type: 'text' }`,
        ),
    );
    await (await getCMS({ config: first, log: quietLog })).close();
    const before = schemaOf(dir);

    const configChange = await getCMS({ config: later, migrate: false, log: quietLog }).catch((e: Error) => e);
    expect((configChange as Error).message).toContain('`cms migrate:create`, then `cms migrate`');
    expect(schemaOf(dir)).toEqual(before);

    expect(cli(['migrate:create', '--config', later], dir).code).toBe(0);
    const written = schemaOf(dir).migrations;
    const pendingFile = await getCMS({ config: later, migrate: false, log: quietLog }).catch((e: Error) => e);
    expect((pendingFile as Error).message).toMatch(
      /migration file\(s\) not applied: 0001_config_change.*Run `cms migrate` first/,
    );
    expect(schemaOf(dir)).toEqual({ tables: before.tables, migrations: written });

    expect(cli(['migrate', '--config', later], dir).code).toBe(0);
    const cms = await getCMS({ config: later, migrate: false, log: quietLog });
    const created = await cms.create({ collection: 'categories', data: { name: 'News', slug: 'news' } });
    expect(created).toMatchObject({ name: 'News', slug: 'news' });
    await cms.close();
  });
});
