/** A newcomer's first minutes with the CLI: the commands `cms init` prints work as pasted, and its .gitignore covers what the server leaves. */
import { afterAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandFrom } from '../../src/cli/invoked-as.ts';
import { progressLine } from '../../src/cli/progress-line.ts';
import { manualClock } from '../../src/clock.ts';
import { spawnListening } from '../support/spawn-listening.ts';

const MAIN = path.join(import.meta.dir, '../..', 'src', 'cli', 'main.ts');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-first-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('init prints the command as this CLI was started, seen from the new folder, and it runs there', () => {
  const made = Bun.spawnSync([process.execPath, MAIN, 'init', 'my-site'], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
  expect(made.exitCode).toBe(0);
  const out = made.stdout.toString();
  expect(out).toContain('cd my-site');
  const line = out.split('\n').find((l) => l.includes('serves http'))!;
  const command = line.trim().split(/\s+#/)[0]!.trim();
  expect(command).not.toBe('cms');
  const [, script] = command.split(' ');
  expect(fs.existsSync(path.resolve(dir, 'my-site', script!))).toBe(true);
  const version = Bun.spawnSync([process.execPath, script!, '--version'], {
    cwd: path.join(dir, 'my-site'),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  expect(version.exitCode).toBe(0);
});

test('a binary run by path is named by its path from the new folder; on PATH it is plain cms', () => {
  const how = { execPath: '/home/ada/cms/dist/cms', script: undefined, path: '/usr/bin:/bin', cwd: '/home/ada/cms' };
  expect(commandFrom('/home/ada/cms/my-site', how)).toBe('../dist/cms');
  expect(commandFrom('/home/ada/cms', how)).toBe('./dist/cms');
  expect(commandFrom('/home/ada/cms/my-site', { ...how, path: '/usr/bin:/home/ada/cms/dist' })).toBe('cms');
  expect(commandFrom('/tmp/site', { ...how, script: 'src/cli/main.ts' })).toBe(
    'bun ../../home/ada/cms/src/cli/main.ts',
  );
});

test("init's .gitignore covers the folders a restore sets aside", () => {
  const ignore = fs.readFileSync(path.join(dir, 'my-site', '.gitignore'), 'utf8').split('\n');
  expect(ignore).toContain('*.before-restore-*');
  if (!Bun.which('git')) return;
  const site = path.join(dir, 'my-site');
  Bun.spawnSync(['git', 'init', '-q'], { cwd: site });
  expect(
    Bun.spawnSync(['git', 'check-ignore', '-q', 'uploads.before-restore-2026-01-01T00-00-00Z/a.png'], { cwd: site })
      .exitCode,
  ).toBe(0);
});

/** Starts the server from `cwd` on a free port, returns what it printed once it listens, then stops it. */
async function serveOnce(cwd: string): Promise<string> {
  const server = await spawnListening([process.execPath, MAIN, '--port', '0'], { cwd });
  return server.stop();
}

test('with no config, serve keeps the built-in schema quiet and writes no migrations beside where it runs', async () => {
  const bare = fs.mkdtempSync(path.join(dir, 'bare-'));
  const out = await serveOnce(bare);
  expect(out).toContain('cms listening');
  expect(out).not.toContain('schema updated');
  expect(fs.existsSync(path.join(bare, 'migrations'))).toBe(false);
  expect(fs.readdirSync(path.join(bare, 'data', 'migrations', 'sqlite')).some((f) => f.endsWith('.sql'))).toBe(true);

  // A config added later continues that history instead of creating the built-in tables again.
  fs.writeFileSync(
    path.join(bare, 'cms.config.ts'),
    "export default { collections: [{ slug: 'notes', fields: [{ name: 'title', type: 'text' }] }] }\n",
  );
  const later = await serveOnce(bare);
  expect(later).toContain('cms listening');
  expect(
    fs
      .readdirSync(path.join(bare, 'migrations', 'sqlite'))
      .filter((f) => f.endsWith('.sql'))
      .sort(),
  ).toEqual(['0000_init.sql', '0001_config_change.sql']);
}, 40_000);

test('off a terminal, progress is whole lines: each phase, each tenth done, and every two seconds of a slow stretch', () => {
  const lines: string[] = [];
  const clock = manualClock(0);
  const line = progressLine('export', undefined, { tty: false, write: (text) => lines.push(text), clock });
  line.show({ phase: 'posts', done: 0, total: 1000 });
  for (let done = 1; done <= 1000; done++) line.show({ phase: 'posts', done, total: 1000 });
  expect(lines).toEqual([
    'export: posts 0/1000\n',
    ...Array.from({ length: 10 }, (_, i) => `export: posts ${(i + 1) * 100}/1000\n`),
  ]);

  lines.length = 0;
  line.show({ phase: 'media', done: 0, total: 100_000 });
  line.show({ phase: 'media', done: 1, total: 100_000 });
  clock.advance(2000);
  line.show({ phase: 'media', done: 2, total: 100_000 });
  line.show({ phase: 'media', done: 3, total: 100_000 });
  expect(lines).toEqual(['export: media 0/100000\n', 'export: media 2/100000\n']);
  expect(lines.every((l) => !l.includes('\r'))).toBe(true);
});

test("--help and the README's command list say the same, migrate:create's folder included", () => {
  const help = Bun.spawnSync([process.execPath, MAIN, '--help'], { stdout: 'pipe' }).stdout.toString();
  const usage = help
    .slice(help.indexOf('Usage:\n') + 7, help.indexOf('\n\nEvery command'))
    .split('\n')
    .map((l) => l.slice(2));
  const readme = fs.readFileSync(path.join(import.meta.dir, '../..', 'README.md'), 'utf8');
  const block = readme.slice(readme.indexOf('## Command line')).split('```')[1]!.trim().split('\n');
  expect(block).toEqual(usage);
  expect(usage.find((l) => l.startsWith('cms migrate:create'))).toContain(
    'migrations/sqlite/ or migrations/postgres/ beside the config',
  );
});
