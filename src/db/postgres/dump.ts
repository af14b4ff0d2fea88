/**
 * The database part of a backup on PostgreSQL, when asked for (`cms backup --with-database`): `pg_dump`
 * in its custom format into the archive, and `pg_restore` of it on `cms restore`. Both are PostgreSQL's own
 * client programs (Debian: postgresql-client), run as child processes; the password goes through the
 * environment (PGPASSWORD), never on a command line another user could read with `ps`.
 */
import { spawn } from 'node:child_process';
import { ConfigError } from '../../errors.ts';

const INSTALL_HINT =
  "install PostgreSQL's client programs (Debian and Ubuntu: apt-get install postgresql-client), or back the database up with your own tools";

/** The URL without its password, and the environment that carries it. */
function connection(url: string): { url: string; env: Record<string, string | undefined> } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function run(program: string, args: string[], url: string): Promise<void> {
  const path = Bun.which(program);
  if (!path) return Promise.reject(new ConfigError(`${program} is not installed: ${INSTALL_HINT}`));
  const { env } = connection(url);
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${program} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`)),
    );
  });
}

/** A consistent dump of the whole database (one snapshot: pg_dump runs in one repeatable-read transaction). */
export function dumpPostgres(url: string, file: string): Promise<void> {
  return run(
    'pg_dump',
    ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${connection(url).url}`],
    url,
  );
}

/** Replaces what the database holds with the dump's objects and rows, all or nothing. */
export function restorePostgres(url: string, file: string): Promise<void> {
  return run(
    'pg_restore',
    [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--no-privileges',
      '--single-transaction',
      '--exit-on-error',
      `--dbname=${connection(url).url}`,
      file,
    ],
    url,
  );
}

/**
 * How many other sessions have the database open (a server, another cms command): a restore waits for
 * none. Sessions closed a moment ago may still be listed while their backends exit: asked again for up
 * to two seconds.
 */
export async function otherSessions(url: string): Promise<number> {
  const sql = new Bun.SQL(url, { max: 1 });
  try {
    for (let tries = 0; ; tries++) {
      const [{ n }] =
        await sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
      if (n === 0 || tries === 20) return n;
      await Bun.sleep(100);
    }
  } finally {
    await sql.close();
  }
}
