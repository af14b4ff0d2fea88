/** `cms create-admin` on a terminal: prompts for what the flags did not give, and never echoes the password. */
import { expect, test } from 'bun:test';
import path from 'node:path';
import { tempDir } from './harness.ts';

const CLI = path.join(import.meta.dir, '../src/cli/main.ts');
const hasScript = Bun.which('script') !== null;

test.skipIf(!hasScript)('prompts for email, password (hidden) and name on a terminal', async () => {
  const dir = tempDir();
  // `script` gives the command a real pseudo-terminal; we answer each prompt once it is shown.
  const proc = Bun.spawn(['script', '-qfec', `${process.execPath} ${CLI} create-admin`, '/dev/null'], { cwd: dir, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  const reader = proc.stdout.getReader();
  let screen = '';
  const waitFor = async (text: string) => {
    const deadline = Date.now() + 15_000;
    while (!screen.includes(text)) {
      if (Date.now() > deadline) throw new Error(`no "${text}" on the terminal; it shows: ${screen}`);
      const { value, done } = await reader.read();
      if (done) throw new Error(`ended before "${text}": ${screen}`);
      screen += new TextDecoder().decode(value);
    }
  };
  await waitFor('Email: ');
  proc.stdin.write('Person@Example.com\n');
  await waitFor('Password');
  proc.stdin.write('supersecret1\n');
  await waitFor('Name (optional): ');
  proc.stdin.write('Pat\n');
  await waitFor('created admin');
  expect(await proc.exited).toBe(0);
  expect(screen).toContain('person@example.com');
  expect(screen).not.toContain('supersecret1');
}, 30_000);
