/** The CLI server in its own process (`cms serve`), so its memory can be measured from outside. */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TEST_ENGINE, tempDir } from '../harness.ts';
import { createTestDatabase, dropDatabase, testPool } from './postgres.ts';
import { spawnListening } from './spawn-listening.ts';

export type ChildServer = {
  url: string;
  api: string;
  pid: number;
  dir: string;
  token: string;
  rssMB(): number;
  stop(): Promise<void>;
  /** `kill -9`: no shutdown, the folder stays for a restart (`startChildServer(config, { dir })`). */
  crash(): Promise<void>;
  /** How it ended on its own ('SIGBUS', 'exit 1'), or null while it runs or after stop()/crash(). */
  died(): string | null;
};

/**
 * `dir`: run over another child's folder and database file (beside it, or as a restart after it stopped;
 * its admin logs in instead of registering); `register: false` makes no session at all (token is then '').
 */
export async function startChildServer(
  config: Record<string, unknown>,
  options: { dir?: string; register?: boolean } = {},
): Promise<ChildServer> {
  const dir = options.dir ?? tempDir('cms-child-');
  const configPath = path.join(dir, 'cms.config.json');
  // A child over another's folder shares its database; a new one gets a file, or on PostgreSQL a fresh database.
  const earlier =
    options.dir && fs.existsSync(configPath)
      ? (JSON.parse(fs.readFileSync(configPath, 'utf8')).database as string)
      : null;
  const database =
    earlier ??
    (DEFAULT_TEST_ENGINE === 'postgres' ? (await createTestDatabase({ migrated: true })).url : 'data/cms.db');
  fs.writeFileSync(configPath, JSON.stringify({ database, ...testPool(database), ...config }));
  const main = path.join(import.meta.dir, '../../src/cli/main.ts');
  const { proc, origin: url } = await spawnListening(
    [process.execPath, main, 'serve', '--config', configPath, '--port', '0'],
    { cwd: dir, env: { ...process.env, NODE_ENV: 'production' } },
  );
  let ended: string | null = null;
  let stopping = false;
  void proc.exited.then((code) => {
    if (!stopping) ended = proc.signalCode ? String(proc.signalCode) : `exit ${code}`;
  });
  const api = `${url}/api/cms`;
  const admin = JSON.stringify({ email: 'admin@example.com', password: 'password123' });
  const entry = options.dir ? 'login' : 'first-register';
  const registered =
    options.register === false
      ? null
      : await fetch(`${api}/users/${entry}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: admin,
        });
  const token = registered ? ((await registered.json()) as { token: string }).token : '';
  return {
    url,
    api,
    pid: proc.pid,
    dir,
    token,
    rssMB() {
      const status = fs.readFileSync(`/proc/${proc.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
    },
    died: () => ended,
    async stop() {
      stopping = true;
      proc.kill('SIGTERM');
      await proc.exited;
      fs.rmSync(dir, { recursive: true, force: true });
      // The folder named the database; with it gone no later child reaches it: a PostgreSQL one is dropped.
      if (database.startsWith('postgres')) await dropDatabase(database);
    },
    async crash() {
      stopping = true;
      proc.kill('SIGKILL');
      await proc.exited;
    },
  };
}

/** Samples a process's RSS while `work` runs; returns the peak. */
export async function peakRSS(
  server: ChildServer,
  work: () => Promise<unknown>,
): Promise<{ peak: number; result: unknown }> {
  let peak = server.rssMB();
  const timer = setInterval(() => {
    peak = Math.max(peak, server.rssMB());
  }, 10);
  try {
    const result = await work();
    peak = Math.max(peak, server.rssMB());
    return { peak, result };
  } finally {
    clearInterval(timer);
  }
}
