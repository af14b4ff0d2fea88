/**
 * A small entry compiled by test/build/build.test.ts with the same plugins and
 * options as dist/cms, to prove inside a real single-file binary that:
 * sharp resizes, drizzle-kit/api diffs SQLite schemas, the admin is embedded
 * and served, the system migrations are embedded and apply, NODE_ENV and
 * .env/bunfig handling, and loading a user's cms.config.ts.
 * Not part of the product. Usage: `probe <check> [args]`, prints one JSON line.
 */
import { Database } from 'bun:sqlite';

const [check, ...args] = process.argv.slice(2);

async function main(): Promise<unknown> {
  switch (check) {
    case 'version':
      return { version: '0.0.0-probe', execPath: process.execPath, main: import.meta.path };

    case 'sharp': {
      const { loadSharp, setNativeDir } = await import('../uploads/sharp-loader.ts');
      if (args[2]) setNativeDir(args[2]);
      const t = performance.now();
      const sharp = await loadSharp();
      const loadMs = performance.now() - t;
      if (!sharp) return { ok: false };
      const out = await sharp(args[0]!).resize({ width: 50 }).png().toBuffer({ resolveWithObject: true });
      await Bun.write(args[1]!, out.data);
      return { ok: true, loadMs, width: out.info.width, height: out.info.height, vips: sharp.versions.vips };
    }

    case 'drizzle-kit': {
      const t = performance.now();
      const { generateSQLiteDrizzleJson, generateSQLiteMigration } = await import('drizzle-kit/api');
      const importMs = performance.now() - t;
      const { sqliteTable, integer, text } = await import('drizzle-orm/sqlite-core');
      // Tables built at run time, like the CMS does from a config.
      const v1 = {
        posts: sqliteTable('posts', { id: integer('id').primaryKey({ autoIncrement: true }), title: text('title') }),
      };
      const v2 = {
        posts: sqliteTable('posts', {
          id: integer('id').primaryKey({ autoIncrement: true }),
          title: text('title'),
          views: integer('views'),
        }),
      };
      const empty = await generateSQLiteDrizzleJson({});
      const s1 = await generateSQLiteDrizzleJson(v1);
      const s2 = await generateSQLiteDrizzleJson(v2, s1.id);
      const create = await generateSQLiteMigration(empty, s1);
      const alter = await generateSQLiteMigration(s1, s2);
      // Apply them, to be sure the SQL is real.
      const db = new Database(':memory:');
      for (const s of [...create, ...alter]) db.run(s);
      const cols = db.query('select name from pragma_table_info(?)').all('posts') as { name: string }[];
      return { importMs, create, alter, columns: cols.map((c) => c.name) };
    }

    case 'admin': {
      const { serveAdminAsset, setAdminRuntimeConfig, adminAssetsSource } = await import('../http/admin-assets.ts');
      setAdminRuntimeConfig({ apiPrefix: '/api/probe', adminPrefix: '/adm' });
      const res = serveAdminAsset(args[0] ?? '/', new Request(`http://localhost/adm${args[0] ?? '/'}`));
      return {
        source: adminAssetsSource(),
        status: res?.status ?? null,
        type: res?.headers.get('content-type') ?? null,
        cache: res?.headers.get('cache-control') ?? null,
        etag: res?.headers.get('etag') ?? null,
        body: res ? (await res.text()).slice(0, 4000) : null,
      };
    }

    case 'migrations': {
      const { systemMigrations, toDrizzleMigrations } = await import('../db/system-migrations.ts');
      const { drizzle } = await import('drizzle-orm/bun-sqlite');
      const db = drizzle(new Database(args[0] ?? ':memory:'));
      const migrations = toDrizzleMigrations(systemMigrations);
      // The way the server applies them: the dialect's migrate with the embedded list.
      const d = db as any;
      d.dialect.migrate(migrations, d.session, { migrationsFolder: '(embedded)' });
      d.dialect.migrate(migrations, d.session, { migrationsFolder: '(embedded)' });
      const tables = d.$client.query("select name from sqlite_master where type='table' order by name").all();
      return { tags: systemMigrations.map((m) => m.tag), tables: tables.map((t: { name: string }) => t.name) };
    }

    case 'env':
      return { NODE_ENV: process.env.NODE_ENV ?? null, CMS_PROBE: process.env.CMS_PROBE ?? null };

    case 'config': {
      // How the CLI loads a user's cms.config.ts: import() of an absolute path.
      const mod = await import(args[0]!);
      const config = mod.default;
      const hook = config.collections[0].hooks.beforeChange[0];
      return {
        slugs: config.collections.map((c: { slug: string }) => c.slug),
        hook: await hook({ data: { title: 'Hello World' } }),
      };
    }

    default:
      throw new Error(`unknown check ${check}`);
  }
}

try {
  console.log(JSON.stringify(await main()));
} catch (err) {
  console.log(JSON.stringify({ error: String((err as Error)?.stack ?? err) }));
  process.exit(1);
}
