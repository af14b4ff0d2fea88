// Runs once (on the SQLite pass): always on PostgreSQL.
/**
 * Opening PostgreSQL (docs/postgres.md) against the real test cluster: the three start-up failures people meet
 * become one-line ConfigErrors (what `cms` prints before exiting 1) that never show the password.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SQL } from 'bun';
import { randomBytes } from 'node:crypto';
import { connectPostgres, describeUrl, isPostgresUrl } from '../../src/db/postgres/connect.ts';
import { ConfigError } from '../../src/errors.ts';
import { adminUrl, createTestDatabase, databaseUrl, type TestDatabase } from '../support/postgres.ts';

let db: TestDatabase;
const role = `cms_test_login_${randomBytes(4).toString('hex')}`;
const password = `pw-${randomBytes(8).toString('hex')}`;

beforeAll(async () => {
  db = await createTestDatabase();
  const admin = new SQL(adminUrl(), { max: 1 });
  await admin.unsafe(`CREATE ROLE "${role}" LOGIN PASSWORD '${password}'`);
  await admin.close();
});

afterAll(async () => {
  await db?.drop();
  const admin = new SQL(adminUrl(), { max: 1 });
  await admin.unsafe(`DROP ROLE IF EXISTS "${role}"`);
  await admin.close();
});

function withLogin(url: string, user: string, pass: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = pass;
  return u.toString();
}

async function startupFailure(url: string, options?: { poolSize?: number }): Promise<ConfigError> {
  let error: unknown;
  try {
    const sql = await connectPostgres(url, options);
    await sql.close();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  expect(message).not.toContain(password);
  return error as ConfigError;
}

describe('connectPostgres', () => {
  test('opens a pool on a database that exists, with the role and password of the URL', async () => {
    const sql = await connectPostgres(withLogin(db.url, role, password), { poolSize: 3 });
    const [row] = await sql`SELECT current_user AS who, current_database() AS name`;
    expect(row).toEqual({ who: role, name: db.name });
    await sql.close();
  });

  test('sslmode in the URL reaches the client: disable connects, require fails on a server without TLS', async () => {
    const plain = await connectPostgres(`${db.url}?sslmode=disable`);
    await plain.close();
    const error = await startupFailure(`${db.url}?sslmode=require`);
    expect(error.message).toContain('TLS');
  });

  test('a server that does not answer: one line naming host and port', async () => {
    const u = new URL(db.url);
    u.port = '1'; // nothing listens on port 1 of the loopback
    const error = await startupFailure(u.toString());
    expect(error.message).toBe(
      `Database error: cannot reach PostgreSQL at ${describeUrl(u.toString())}: is the server running and the host and port right?`,
    );
    expect(error.message).toContain('127.0.0.1:1/');
  });

  test('a database that does not exist: one line naming it', async () => {
    const error = await startupFailure(databaseUrl('cms_no_such_db'));
    expect(error.message).toContain('database "cms_no_such_db" does not exist');
    expect(error.message).toContain('createdb cms_no_such_db');
  });

  test('wrong password: one line naming the user, never the password', async () => {
    const error = await startupFailure(withLogin(db.url, role, `${password}-wrong`));
    expect(error.message).toContain('refused the login');
    expect(error.message).toContain(`password authentication failed for user "${role}"`);
    expect(error.message).not.toContain(`${password}-wrong`);
  });

  test('pool size must be a positive integer', async () => {
    const error = await startupFailure(db.url, { poolSize: 0 });
    expect(error.message).toContain('databasePool');
  });

  test('only postgres:// and postgresql:// URLs select PostgreSQL', () => {
    expect(isPostgresUrl('postgres://u@h/db')).toBe(true);
    expect(isPostgresUrl('postgresql://u@h/db')).toBe(true);
    expect(isPostgresUrl('data/cms.db')).toBe(false);
    expect(isPostgresUrl('postgres.db')).toBe(false);
  });
});
