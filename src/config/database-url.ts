/** What the `database` setting says about the engine, read by the config sanitizer without loading a driver. */

export const DEFAULT_POOL_SIZE = 10;

/** `postgres://…` or `postgresql://…` selects PostgreSQL (docs/postgres.md); anything else is a SQLite path. */
export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}

/** The URL without its password, for messages: `user@host:port/db`. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `${user}${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'the configured URL';
  }
}
