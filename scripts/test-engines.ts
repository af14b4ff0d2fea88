/**
 * `bun run test`: the whole suite on each engine (a matrix: the same tests, not a copy): on
 * SQLite, and again with CMS_TEST_ENGINE=postgres, which makes every test server (test/harness.ts,
 * test/support/child-server.ts) run on a fresh database of the loopback cluster (test/setup/postgres.ts).
 * Files that do not depend on the engine (the build, the browser, the PostgreSQL-only files) run once, on the
 * SQLite pass: each says so in its first lines; `--list-once` prints them with their reasons.
 * Two processes run at once: the browser files and builds in one, the PostgreSQL pass in the other, then
 * each takes chunks of the SQLite pass until none is left; each run's output is printed whole when it ends
 * (a progress line every 30 s meanwhile); `--serial` runs them one after the other with their output as it
 * comes. Other arguments go to every run (`bun run test test/query`, a folder or a file). Ends with
 * `N passed, N failed`.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isBrowserOrBuild, runOnceFiles, testFiles } from './test-files.ts';

// Files that do not depend on the engine under test say so in their first lines
// (`// Runs once (on the SQLite pass): why`, scripts/test-files.ts): the build, the browser, SQLite-only
// stores, pure units, the repository checks, the PostgreSQL-only files, the files that test both engines
// themselves in one run, and `cms` processes on folders of their own. The PostgreSQL pass leaves them out.
const ONCE = runOnceFiles();
if (process.argv.includes('--list-once')) {
  for (const { file, reason } of ONCE) console.log(`${file}  ${reason}`);
  process.exit(0);
}
// The loopback PostgreSQL cluster is set up here, once, before the runs start: each run would otherwise
// do it in its preload, both at the same time (two apt-get installs on a fresh machine).
await import('../test/setup/postgres.ts');

const serial = process.argv.includes('--serial');
const args = process.argv.slice(2).filter((a) => a !== '--serial');

/**
 * Writes to stdout and waits until the text is handed on: a held run's output is large, and the two runs'
 * outputs and the closing line must reach a pipe whole and in order (an exit with writes pending cut them).
 */
const print = (text: string) => new Promise<void>((done) => process.stdout.write(text, () => done()));

type Outcome = { name: string; passed: number; failed: number; code: number; seconds: number; slowest: Timing[] };
/** A file and the milliseconds it took. */
type Timing = [file: string, ms: number];
type Pass = {
  /** How the run is named in the log. */
  name: string;
  engine: 'sqlite' | 'postgres';
  /** The files this run leaves to the others. */
  skipped: string[];
  done: number;
  failed: number;
  output: string[];
};

/**
 * Runs the suite on one engine. `live`: its output goes straight through; otherwise it is kept and printed
 * whole when the run ends, so that two runs at once do not mix their lines.
 */
async function run(pass: Pass, live: boolean): Promise<Outcome> {
  const heading = `\n=== tests on ${pass.name} ===\n`;
  if (live) await print(heading);
  const { skipped } = pass;
  const ignore = skipped.map((file) => `--path-ignore-patterns=${file}`);
  // Files or folders named on the command line that select only files of the other pass: nothing to run here.
  const selected = selectedFiles(args);
  if (selected.length && selected.every((file) => skipped.includes(file))) {
    await print(`${heading}(none of the files given runs on ${pass.name})\n`);
    return { name: pass.name, passed: 0, failed: 0, code: 0, seconds: 0, slowest: [] };
  }
  // Browser and binary tests start real processes; give them room. On the command line, because this Bun
  // does not read a `timeout` from bunfig.toml's [test] (a test there still stopped at 5 s).
  // Each file's time, written by Bun after the run: the slowest are named at the end, so that a run's log
  // says where its minutes went.
  const timings = join(tmpdir(), `cms-test-timings-${process.pid}-${pass.name.replace(/\W+/g, '-')}.json`);
  rmSync(timings, { force: true });
  const started = performance.now();
  const proc = Bun.spawn(
    ['bun', 'test', '--timeout=60000', `--timings=${timings}`, '--update-timings', ...ignore, ...args],
    {
      env: { ...process.env, CMS_TEST_ENGINE: pass.engine },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
  // bun test writes results and its summary on stderr, tests may print on stdout: both go to stdout here,
  // so that they and the closing line reach a pipe in the order they were written.
  let tail = '';
  const follow = async (stream: ReadableStream<Uint8Array>, results: boolean) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const text = decoder.decode(chunk, { stream: true });
      if (live) await print(text);
      else pass.output.push(text);
      if (!results) continue;
      tail = (tail + text).slice(-4000);
      pass.done += text.match(/^\((pass|fail)\)/gm)?.length ?? 0;
      pass.failed += text.match(/^\(fail\)/gm)?.length ?? 0;
    }
  };
  await Promise.all([follow(proc.stdout, false), follow(proc.stderr, true)]);
  const code = await proc.exited;
  if (!live) await print(heading + pass.output.join(''));
  const count = (word: 'pass' | 'fail') =>
    Number([...tail.matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, 'gm'))].pop()?.[1] ?? 0);
  const seconds = (performance.now() - started) / 1000;
  return {
    name: pass.name,
    passed: count('pass'),
    failed: count('fail'),
    code,
    seconds,
    slowest: fileTimings(timings),
  };
}

/**
 * The test files the command line names. Bun takes a name as a filter: every test file whose path holds
 * it (`test/repo` is the folder, `query` every file with "query" in its path). Empty when nothing is named.
 */
function selectedFiles(argv: string[]): string[] {
  const names = argv
    .filter((a, i) => !a.startsWith('-') && !VALUED.has(argv[i - 1] ?? ''))
    .map((a) => a.replace(/^\.\//, ''));
  return names.length ? testFiles().filter((file) => names.some((name) => file.includes(name))) : [];
}
/** Options of `bun test` whose value is the next argument rather than a file name. */
const VALUED = new Set(['-t', '--test-name-pattern', '--timeout', '--rerun-each', '--seed', '--preload']);

/** Each file's time, from Bun's per-file timings (nothing when the run wrote none). */
function fileTimings(path: string): Timing[] {
  if (!existsSync(path)) return [];
  const { files } = JSON.parse(readFileSync(path, 'utf8')) as { files: Record<string, number> };
  rmSync(path, { force: true });
  return Object.entries(files);
}

/** The ten that took longest, a line each. */
const slowest = (timings: Timing[]) =>
  [...timings]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([file, ms]) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`)
    .join('\n');

// Two processes at a time. The browser files and the builds (run once, on SQLite) must not run beside each
// other, so they run one after another in one process, and the PostgreSQL pass in the other. The rest of
// the SQLite pass is cut into chunks of files that either process takes when it is free, so that both end
// within a chunk of each other however long the first two take on the machine at hand.
const all = testFiles();
const once = new Set(ONCE.map((f) => f.file));
const onSqlite = all.filter((file) => !isBrowserOrBuild(file));
const CHUNKS = 8;
const pass = (name: string, engine: Pass['engine'], runs: (file: string) => boolean): Pass => ({
  name,
  engine,
  skipped: all.filter((file) => !runs(file)),
  done: 0,
  failed: 0,
  output: [],
});
const chunks = Array.from({ length: CHUNKS }, (_, k) => {
  const files = new Set(onSqlite.filter((_, i) => i % CHUNKS === k));
  return pass(`sqlite, part ${k + 1} of ${CHUNKS}`, 'sqlite', (file) => files.has(file));
});
const firsts = [
  pass('sqlite, browser and builds', 'sqlite', isBrowserOrBuild),
  pass('postgres', 'postgres', (file) => !once.has(file)),
];
const passes = [...firsts, ...chunks];
let outcomes: Outcome[];
if (serial) {
  outcomes = [];
  for (const p of passes) outcomes.push(await run(p, true));
} else {
  // A progress line every 30 s while the runs' output is held back.
  const started = performance.now();
  const progress = setInterval(() => {
    const seconds = Math.round((performance.now() - started) / 1000);
    const parts = passes
      .filter((p) => p.done)
      .map((p) => `${p.name} ${p.done} done${p.failed ? `, ${p.failed} failed` : ''}`);
    console.log(`tests: ${seconds} s, ${parts.join('; ') || 'starting'}`);
  }, 30_000);
  const queue = [...chunks];
  const bySlot = await Promise.all(
    firsts.map(async (first) => {
      const done = [await run(first, false)];
      for (let next = queue.shift(); next; next = queue.shift()) done.push(await run(next, false));
      return done;
    }),
  );
  // In the order of `passes`, whichever process ran them.
  const ran = bySlot.flat();
  outcomes = passes.map((p) => ran.find((o) => o.name === p.name)!);
  clearInterval(progress);
}
// The slowest files of the first two runs, and of the SQLite chunks together.
const groups = [
  ...outcomes.slice(0, firsts.length).map((o) => [o.name, o.slowest] as const),
  ['sqlite, the other files', outcomes.slice(firsts.length).flatMap((o) => o.slowest)] as const,
];
for (const [name, timings] of groups)
  if (timings.length) await print(`\nslowest files on ${name}:\n${slowest(timings)}\n`);
const lines = outcomes.map(
  (o) =>
    `${o.name}: ${o.passed} passed, ${o.failed} failed${o.code && !o.failed ? ` (exit ${o.code})` : ''}, ${Math.round(o.seconds)} s`,
);
const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const failed = outcomes.reduce((n, o) => n + o.failed, 0);
await print(`\n${lines.join('\n')}\n${passed} passed, ${failed} failed\n`);
process.exitCode = outcomes.some((o) => o.code !== 0) ? 1 : 0;
