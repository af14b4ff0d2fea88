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

/**
 * A consistent dump of the whole database, with the row count of each table of the same moment. A
 * repeatable-read transaction of our own exports its snapshot, counts the tables in it, and pg_dump reads
 * that very snapshot (`--snapshot`) while the transaction stays open: writes committed meanwhile are in
 * neither the dump nor the counts.
 */
export async function dumpPostgres(url: string, file: string): Promise<Record<string, number>> {
  const sql = new Bun.SQL(url, { max: 1 });
  try {
    return await sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (tx) => {
      const [{ snapshot }] = await tx`SELECT pg_export_snapshot() AS snapshot`;
      const tables: { name: string }[] =
        await tx`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`;
      const rows: Record<string, number> = {};
      for (const { name } of tables) {
        const [{ n }] = await tx.unsafe(`SELECT count(*)::bigint AS n FROM "${name.replaceAll('"', '""')}"`);
        rows[name] = Number(n);
      }
      await run(
        'pg_dump',
        [
          '--format=custom',
          '--no-owner',
          '--no-privileges',
          `--snapshot=${snapshot}`,
          `--file=${file}`,
          `--dbname=${connection(url).url}`,
        ],
        url,
      );
      return rows;
    });
  } finally {
    await sql.close();
  }
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
