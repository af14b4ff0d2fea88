// Runs once (on the SQLite pass): `cms serve` on a folder of its own, which always holds a SQLite file.
/**
 * A short run of the fuzzer (scripts/fuzz.ts): a few hundred requests of every class of bad input (values
 * at and past the size limits and percent-encoded parameter names among them) against `cms serve` in its
 * own process; any 5xx, hang or crash fails. The long run is by hand:
 * `bun scripts/fuzz.ts --requests 5000 --seed <n>`.
 */
import { expect, test } from 'bun:test';
import path from 'node:path';

test('bad input of every class answers 4xx (or a normal answer): no 5xx, no hang, no crash', async () => {
  const script = path.join(import.meta.dir, '../../scripts/fuzz.ts');
  const run = Bun.spawn(
    [process.execPath, script, '--requests', '300', '--seed', '7', '--timeout', '5000', '--budget', '20'],
    { stdout: 'pipe', stderr: 'pipe' },
  );
  const [out, err, code] = await Promise.all([
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
    run.exited,
  ]);
  const summary = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0) throw new Error(`fuzz failed (${code}):\n${out.slice(-4000)}\n${err.slice(-2000)}`);
  expect(summary).toMatch(/^fuzz: 300 requests, 0 5xx, 0 hangs, 0 unanswered, no crash/);
}, 30_000);
