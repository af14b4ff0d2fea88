/**
 * Another Bun project that depends on this one, as `bun add cms@file:…` would leave it: the fixture
 * copied to a temp folder, `node_modules/cms` linking to this checkout, and @types/bun beside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../harness.ts';

export const ROOT = path.join(import.meta.dir, '../..');
const FIXTURE = path.join(import.meta.dir, '../fixtures/typed-consumer');

export function consumerProject(): string {
  const dir = tempDir('cms-consumer-');
  fs.cpSync(FIXTURE, dir, { recursive: true });
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules/cms'), 'dir');
  fs.symlinkSync(path.join(ROOT, 'node_modules/@types'), path.join(dir, 'node_modules/@types'), 'dir');
  return dir;
}

/** Runs a command to its end; its output and exit code. */
export function run(cmd: string[], cwd: string): { code: number; out: string } {
  const result = Bun.spawnSync(cmd, {
    cwd,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return { code: result.exitCode, out: result.stdout.toString() + result.stderr.toString() };
}

export const cli = (args: string[], cwd: string) =>
  run([process.execPath, path.join(ROOT, 'src/cli/main.ts'), ...args], cwd);
