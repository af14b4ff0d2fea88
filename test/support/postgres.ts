/**
 * A fresh PostgreSQL database per test file, made on the cluster named by CMS_TEST_POSTGRES_URL (an admin
 * URL whose role may create databases; .ci/postgres sets one up, README "Running the tests against
 * PostgreSQL" says how by hand). Without it this throws: the PostgreSQL tests fail, they never skip.
 */
import { SQL } from 'bun';
import { randomBytes } from 'node:crypto';
import { applyPostgresSystemMigrations, postgresSystemMigrations } from '../../src/db/postgres/migrate.ts';

export type TestDatabase = {
  /** postgres://… of the new database, same role and host as the admin URL. */
  url: string;
  name: string;
  /** Drops the database (ending its leftover connections). */
  drop(): Promise<void>;
};

export function adminUrl(): string {
  const url = process.env.CMS_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      'CMS_TEST_POSTGRES_URL is not set: the PostgreSQL tests need a cluster. Run `.ci/postgres` ' +
        '(as root) and export the URL it prints, or see README "Running the tests against PostgreSQL".',
    );
  }
  return url;
}

/** The admin URL pointed at another database of the same cluster. */
export function databaseUrl(name: string, base = adminUrl()): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A database the system migrations have run on, made once per cluster and set of system migrations (its
 * name carries their hash): a test server's database is a copy of it, so each does not run them again.
 * (Most of what the cluster spends on a run is the connections themselves: see testPool.)
 */
let template: Promise<string> | null = null;
export function migratedTemplate(): Promise<string> {
  template ??= makeTemplate();
  return template;
}

async function makeTemplate(): Promise<string> {
  const hash = new Bun.CryptoHasher('sha256');
  for (const m of postgresSystemMigrations) hash.update(`${m.name}\n${m.sql}\n`);
  const name = `cms_template_${hash.digest('hex').slice(0, 16)}`;
  const admin = new SQL(adminUrl(), { max: 1 });
  try {
    if ((await admin.unsafe('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length) return name;
    // Built under another name and renamed when complete: a run that stops halfway leaves no template
    // that looks finished, and of two processes building at once the second to rename keeps the first's.
    const building = `cms_test_${randomBytes(6).toString('hex')}`;
    await admin.unsafe(`CREATE DATABASE "${building}"`);
    const sql = new SQL(databaseUrl(building), { max: 1 });
    try {
      await applyPostgresSystemMigrations(sql, new Date().toISOString());
    } finally {
      await sql.close();
    }
    try {
      await admin.unsafe(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } catch {
      await dropDatabase(building);
    }
    return name;
  } finally {
    await admin.close();
  }
}

/**
 * The pool a test server on PostgreSQL gets unless its config sets one: 3 connections, not the default 10.
 * A new connection costs the cluster about 50 ms of CPU on the test machine (forking a backend and loading
 * its catalogue caches), and a server opens its whole pool while it starts: with ten, the connections of a
 * suite's thousands of short-lived servers were half of what the cluster spent in a run.
 */
export function testPool(database: string): { databasePool?: number } {
  return database.startsWith('postgres') ? { databasePool: 3 } : {};
}

let admin: SQL | undefined;

/**
 * The process's connection to the cluster's admin database, for its creates and drops: one, kept, rather
 * than two new ones per test server (see testPool for what a connection costs). It closes after two idle
 * seconds, so a script that made a database can end, and opens again when next asked.
 */
function adminSql(): SQL {
  admin ??= new SQL(adminUrl(), { max: 1, idleTimeout: 2 });
  return admin;
}

/** The databases this process made and has not dropped: what its end drops (dropLeftoverDatabases). */
const made = new Set<string>();

/** `migrated`: a copy of the migrated template (the system tables are there; a server's start finds them applied). */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const from = options.migrated ? ` TEMPLATE "${await migratedTemplate()}"` : '';
  const name = `cms_test_${randomBytes(6).toString('hex')}`;
  try {
    // FILE_COPY copies the template's files as they are: about a tenth of the cluster's CPU of the default
    // (which writes every page through the WAL), at the cost of a checkpoint, cheap on this cluster.
    await adminSql().unsafe(`CREATE DATABASE "${name}"${from} STRATEGY FILE_COPY`);
  } catch (error) {
    throw new Error(`cannot create a test database on ${new URL(adminUrl()).host}: ${(error as Error).message}`);
  }
  made.add(name);
  return { url: databaseUrl(name), name, drop: () => dropDatabase(name) };
}

/**
 * Drops every database this process made that is still there: a test that left one behind (a server it
 * never stopped, a child process killed on purpose) costs the cluster's disk nothing after the run. Called
 * once, after the process's last test (test/setup/postgres.ts).
 */
export async function dropLeftoverDatabases(): Promise<void> {
  for (const name of [...made]) await dropDatabase(name);
}

/** The name of a test database from its URL (the names are ours: cms_test_ and hex digits). */
function databaseName(url: string): string {
  const name = new URL(url).pathname.slice(1);
  if (!/^cms_test_[0-9a-f]+$/.test(name)) throw new Error(`not a test database: ${name}`);
  return name;
}

/**
 * Drops a test database, by name or URL, ending its leftover connections. Best effort: a database left
 * behind (a connection of another role still closing) only costs disk.
 */
export async function dropDatabase(nameOrUrl: string): Promise<void> {
  const name = nameOrUrl.includes('://') ? databaseName(nameOrUrl) : nameOrUrl;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await adminSql().unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      made.delete(name);
      return;
    } catch {
      await Bun.sleep(100);
    }
  }
}

/** Where a seeded database keeps the copy of its tables that `restore` puts back. */
const SEED_SCHEMA = 'cms_seed';

/**
 * Keeps what a database holds now (the rows of every table of its schema, and where its sequences stand)
 * and puts it back on `restore`, in one transaction: the scenario tables' fresh state per row on
 * PostgreSQL. Copying the whole database for each row (`CREATE DATABASE … TEMPLATE`) gave the same state
 * but cost 0.3–0.5 s a row on the test machine; putting the rows back costs a few milliseconds. The schema
 * itself never differs between rows: every row of a table runs the same config. Nothing may be connected
 * to the database while `restore` runs.
 */
export async function keepDatabaseState(url: string): Promise<{ restore(): Promise<void>; close(): Promise<void> }> {
  const sql = new SQL(url, { max: 1 });
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const tables: string[] = (
    await sql.unsafe(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)
  ).map((r: { tablename: string }) => r.tablename);
  const sequences: { name: string; last: string | null }[] = await sql.unsafe(
    `SELECT sequencename AS name, last_value::text AS last FROM pg_sequences WHERE schemaname = current_schema()`,
  );
  await sql.unsafe(
    [
      `CREATE SCHEMA ${SEED_SCHEMA}`,
      ...tables.map((t) => `CREATE TABLE ${SEED_SCHEMA}.${quote(t)} AS TABLE ${quote(t)}`),
    ].join(';\n'),
  );
  // The change counters go back last: the other tables' statement triggers count the restore itself.
  const ordered = [...tables.filter((t) => t !== '_cms_changes'), ...tables.filter((t) => t === '_cms_changes')];
  const script = [
    ...ordered.flatMap((t) => [
      `DELETE FROM ${quote(t)}`,
      `INSERT INTO ${quote(t)} OVERRIDING SYSTEM VALUE SELECT * FROM ${SEED_SCHEMA}.${quote(t)}`,
    ]),
    ...sequences.map((s) =>
      s.last === null
        ? `SELECT setval('${quote(s.name)}', 1, false)`
        : `SELECT setval('${quote(s.name)}', ${BigInt(s.last)}, true)`,
    ),
  ].join(';\n');
  return {
    restore: () => sql.begin((tx) => tx.unsafe(script)),
    close: () => sql.close(),
  };
}
