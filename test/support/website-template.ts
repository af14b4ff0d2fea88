/**
 * A project made by `cms init --template website` (with an admin made by `cms create-admin` before the
 * first start), served by `cms`: on the suite's engine (a fresh PostgreSQL database through DATABASE_URL).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TEST_ENGINE, tempDir } from '../harness.ts';
import { createTestDatabase } from './postgres.ts';
import { spawnListening } from './spawn-listening.ts';

const MAIN = path.join(import.meta.dir, '../../src/cli/main.ts');
export const TEMPLATE_ADMIN = { email: 'ada@example.com', password: 'password123', name: 'Ada Admin' };

export type ServedSite = { url: string; out: () => string; stop: () => Promise<void> };

export type WebsiteProject = {
  dir: string;
  site: string;
  /** What the project's commands need in their environment (DATABASE_URL on PostgreSQL). */
  env: Record<string, string>;
  init: { stdout: string; exitCode: number };
  remove: () => Promise<void>;
};

/** `cms init site --template website` in a new temp folder, then `cms create-admin`. */
export async function initWebsite(): Promise<WebsiteProject> {
  const dir = tempDir('cms-website-');
  const database = DEFAULT_TEST_ENGINE === 'postgres' ? await createTestDatabase() : null;
  const env: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
  const made = Bun.spawnSync([process.execPath, MAIN, 'init', 'site', '--template', 'website'], {
    cwd: dir,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const site = path.join(dir, 'site');
  const { email, password, name } = TEMPLATE_ADMIN;
  const admin = Bun.spawnSync(
    [process.execPath, MAIN, 'create-admin', '--email', email, '--password', password, '--name', name],
    { cwd: site, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } },
  );
  if (admin.exitCode !== 0) throw new Error(`create-admin: ${admin.stderr}`);
  return {
    dir,
    site,
    env,
    init: { stdout: made.stdout.toString(), exitCode: made.exitCode },
    remove: async () => {
      fs.rmSync(dir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}

/** `cms` in `cwd` on a free port, once it says where it listens. */
export async function serveWebsite(cwd: string, env: Record<string, string> = {}): Promise<ServedSite> {
  const server = await spawnListening([process.execPath, MAIN, '--port', '0'], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', ...env },
  });
  return {
    url: server.origin,
    out: server.output,
    stop: async () => void (await server.stop()),
  };
}
