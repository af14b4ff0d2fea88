// Runs once (on the SQLite pass): `cms create-admin` on a folder of its own, which always holds a SQLite file.
/** `cms create-admin` on a terminal: prompts for what the flags did not give, and never echoes the password. */
import { expect, test } from 'bun:test';
import path from 'node:path';
import { tempDir } from '../harness.ts';

const CLI = path.join(import.meta.dir, '../../src/cli/main.ts');
const hasScript = Bun.which('script') !== null;

/** `script` gives the command a real pseudo-terminal; the test answers each prompt once it is shown. */
function onTerminal() {
  const proc = Bun.spawn(['script', '-qfec', `${process.execPath} ${CLI} create-admin`, '/dev/null'], {
    cwd: tempDir(),
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const reader = proc.stdout.getReader();
  const term = {
    proc,
    screen: '',
    async waitFor(text: string) {
      const deadline = Date.now() + 15_000;
      while (!term.screen.includes(text)) {
        if (Date.now() > deadline) throw new Error(`no "${text}" on the terminal; it shows: ${term.screen}`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`ended before "${text}": ${term.screen}`);
        term.screen += new TextDecoder().decode(value);
      }
    },
    async answer(prompt: string, text: string) {
      await term.waitFor(prompt);
      proc.stdin.write(`${text}\n`);
    },
  };
  return term;
}

test.skipIf(!hasScript)(
  'prompts for email, password twice (hidden) and name on a terminal',
  async () => {
    const term = onTerminal();
    await term.answer('Email: ', 'Person@Example.com');
    await term.answer('Password (', 'supersecret1');
    await term.answer('Password again: ', 'supersecret1');
    await term.answer('Name (optional): ', 'Pat');
    await term.waitFor('created admin');
    expect(await term.proc.exited).toBe(0);
    expect(term.screen).toContain('person@example.com');
    expect(term.screen).not.toContain('supersecret1');
  },
  30_000,
);

test.skipIf(!hasScript)(
  'refuses two passwords that differ, creating nobody',
  async () => {
    const term = onTerminal();
    await term.answer('Email: ', 'pat@example.com');
    await term.answer('Password (', 'supersecret1');
    await term.answer('Password again: ', 'supersecret2');
    await term.waitFor('differ');
    expect(await term.proc.exited).not.toBe(0);
    expect(term.screen).not.toContain('created admin');
    expect(term.screen).not.toContain('supersecret');
  },
  30_000,
);
