/**
 * Preloaded by `bun test` (bunfig.toml): the README's one test command must run the PostgreSQL half too on a
 * fresh machine. When CMS_TEST_POSTGRES_URL is not set, .ci/postgres installs (as root, with apt-get) and
 * starts a loopback cluster and prints its URL; when it cannot, the variable stays unset and the PostgreSQL
 * tests fail saying why (test/support/postgres.ts) — they never skip.
 */
import path from 'node:path';

if (!process.env.CMS_TEST_POSTGRES_URL) {
  const script = path.join(import.meta.dir, '../../.ci/postgres');
  const result = Bun.spawnSync(['bash', script], { stdout: 'pipe', stderr: 'pipe' });
  const url = result.stdout.toString().trim();
  if (result.exitCode === 0 && url) process.env.CMS_TEST_POSTGRES_URL = url;
  else
    console.error(`PostgreSQL is not available, so the PostgreSQL tests will fail: ${result.stderr.toString().trim()}`);
}
