/**
 * A fresh PostgreSQL database per test file, made on the cluster named by CMS_TEST_POSTGRES_URL (an admin
 * URL whose role may create databases; .ci/postgres sets one up, README "Running the tests against
 * PostgreSQL" says how by hand). Without it this throws: the PostgreSQL tests fail, they never skip.
 */
import { SQL } from 'bun';
import { randomBytes } from 'node:crypto';

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

/** `template`: the URL of a database to copy (no connection may be open to it), else an empty one. */
export async function createTestDatabase(options: { template?: string } = {}): Promise<TestDatabase> {
  const admin = new SQL(adminUrl(), { max: 1 });
  const name = `cms_test_${randomBytes(6).toString('hex')}`;
  const template = options.template ? ` TEMPLATE "${databaseName(options.template)}"` : '';
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"${template}`);
  } catch (error) {
    throw new Error(`cannot create a test database on ${new URL(adminUrl()).host}: ${(error as Error).message}`);
  } finally {
    await admin.close();
  }
  return { url: databaseUrl(name), name, drop: () => dropDatabase(name) };
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
    const sql = new SQL(adminUrl(), { max: 1 });
    try {
      await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      return;
    } catch {
      await Bun.sleep(100);
    } finally {
      await sql.close();
    }
  }
}
