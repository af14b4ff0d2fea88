/** Runs `cms …` (src/cli/main.ts) in a process of its own, in production mode, and collects what it printed. */
import fs from 'node:fs';
import path from 'node:path';

const MAIN = path.join(import.meta.dir, '../../src/cli/main.ts');

export function runCLI(cwd: string, ...args: string[]): { code: number | null; out: string; err: string } {
  const run = Bun.spawnSync([process.execPath, MAIN, ...args], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', CMS_TEST_ENGINE: '' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() };
}

/** A folder `name` under `work` holding a config of one `notes` collection (a SQLite project). */
export function notesProject(work: string, name: string): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, 'cms.config.ts'),
    `export default { collections: [{ slug: 'notes', fields: [{ name: 'text', type: 'text' }] }] };\n`,
  );
  return dir;
}
