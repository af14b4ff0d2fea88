/**
 * Opens the PostgreSQL pool through Bun's built-in client (no driver package). Bun.SQL connects lazily, so
 * this makes one connection up front: a server that is down, a database that does not exist or wrong
 * credentials then stop `cms` at start with one line (ConfigError: exit 1, no stack) instead of failing
 * the first request. TLS comes from the URL (`?sslmode=require|verify-full|disable|prefer`), passed as is.
 */
// A type import only: `import { SQL } from 'bun'` loads Bun's PostgreSQL client (~8 ms, ~4 MB) as soon as
// this module loads.
import type { SQL } from 'bun';
import { ConfigError } from '../../errors.ts';

export { DEFAULT_POOL_SIZE, describeUrl, isPostgresUrl } from '../../config/database-url.ts';
import { DEFAULT_POOL_SIZE, describeUrl } from '../../config/database-url.ts';

export async function connectPostgres(url: string, options: { poolSize?: number } = {}): Promise<SQL> {
  const max = options.poolSize ?? DEFAULT_POOL_SIZE;
  if (!Number.isInteger(max) || max < 1)
    throw new ConfigError(
      `Config error: databasePool: expected a positive integer, got ${JSON.stringify(options.poolSize)}`,
    );
  if (!URL.canParse(url))
    throw new ConfigError(
      'Database error: the PostgreSQL URL cannot be parsed (expected postgres://user:password@host:port/database)',
    );
  const sql = new Bun.SQL(url, { max, connectionTimeout: 10 });
  try {
    await sql`SELECT 1`;
  } catch (error) {
    await sql.close().catch(() => {});
    throw startupError(error, url);
  }
  return sql;
}

/** The start-up failures people meet, each as one line that says what to check; anything else as is. */
function startupError(error: unknown, url: string): Error {
  const e = error as { code?: string; errno?: string; message?: string };
  const where = describeUrl(url);
  const database = new URL(url).pathname.slice(1) || '(default)';
  switch (e.errno ?? e.code) {
    case 'ERR_POSTGRES_CONNECTION_REFUSED':
    case 'ERR_POSTGRES_CONNECTION_TIMEOUT':
      return new ConfigError(
        `Database error: cannot reach PostgreSQL at ${where}: is the server running and the host and port right?`,
      );
    case '3D000':
      return new ConfigError(
        `Database error: database "${database}" does not exist on ${where}: create it (createdb ${database}) or fix the URL`,
      );
    case '28P01':
    case '28000':
      return new ConfigError(
        `Database error: PostgreSQL refused the login at ${where}: ${e.message} (check the user and password in the URL)`,
      );
    case 'ERR_POSTGRES_TLS_NOT_AVAILABLE':
      return new ConfigError(
        `Database error: ${where} does not offer TLS but the URL asks for it (sslmode): ${e.message}`,
      );
    default:
      return new ConfigError(`Database error: cannot connect to PostgreSQL at ${where}: ${e.message ?? String(error)}`);
  }
}
