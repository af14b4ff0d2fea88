/**
 * `bun run test`: the whole suite on each engine (a matrix: the same tests, not a copy). First on
 * SQLite, then again with CMS_TEST_ENGINE=postgres, which makes every test server (test/harness.ts,
 * test/support/child-server.ts) run on a fresh database of the loopback cluster (test/setup/postgres.ts).
 * Files that do not depend on the engine (the build, the browser, the PostgreSQL-only files) run once.
 * Extra arguments go to both runs (`bun run test test/query.test.ts`). Ends with `N passed, N failed`.
 */
export {};

// Run on the SQLite pass only: files that start no CMS on the engine under test (the build, the browser,
// SQLite-only stores, pure units, the repository checks), the PostgreSQL-only files, and the files that
// test both engines themselves in one run (the dialect conformance suite).
const ONCE = [
  'test/build*.test.ts',
  'test/i18n-catalogues.test.ts',
  'test/richtext-convert.test.ts',
  'test/cli-website-template.test.ts',
  'test/admin-*.test.ts',
  'test/create-admin-tty.test.ts',
  'test/postgres-*.test.ts',
  'test/media-no-sharp.test.ts',
  'test/migrate-engine.test.ts',
  'test/commit-watcher.test.ts',
  'test/wal-checkpoints.test.ts',
  'test/architecture.test.ts',
  'test/self-contained.test.ts',
  'test/commit-subjects.test.ts',
  'test/webhook-units.test.ts',
  'test/multipart.test.ts',
  'test/store.test.ts',
  'test/typed-consumer.test.ts',
  'test/dialect-conformance.test.ts',
  // `cms` processes started on a folder of their own, which always hold a SQLite file.
  'test/config-and-migrations.test.ts',
  'test/serve-cli.test.ts',
  'test/shutdown.test.ts',
  'test/sqlite-snapshot.test.ts',
  'test/security/fuzz.test.ts',
  'test/security/restore-archive.test.ts',
];
const args = process.argv.slice(2);

type Outcome = { engine: string; passed: number; failed: number; code: number };

async function run(engine: 'sqlite' | 'postgres'): Promise<Outcome> {
  console.log(`\n=== tests on ${engine} ===`);
  const ignore = engine === 'postgres' ? ONCE.map((glob) => `--path-ignore-patterns=${glob}`) : [];
  // Browser and binary tests start real processes; give them room. On the command line, because this Bun
  // does not read a `timeout` from bunfig.toml's [test] (a test there still stopped at 5 s).
  const proc = Bun.spawn(['bun', 'test', '--timeout=60000', ...ignore, ...args], {
    env: { ...process.env, CMS_TEST_ENGINE: engine },
    stdout: 'inherit',
    stderr: 'pipe',
  });
  // bun test writes results and its summary on stderr: pass it through and read the summary's counts.
  let tail = '';
  for await (const chunk of proc.stderr) {
    process.stderr.write(chunk);
    tail = (tail + new TextDecoder().decode(chunk)).slice(-4000);
  }
  const code = await proc.exited;
  const count = (word: 'pass' | 'fail') =>
    Number([...tail.matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, 'gm'))].pop()?.[1] ?? 0);
  return { engine, passed: count('pass'), failed: count('fail'), code };
}

const outcomes = [await run('sqlite'), await run('postgres')];
console.log('');
for (const o of outcomes)
  console.log(`${o.engine}: ${o.passed} passed, ${o.failed} failed${o.code && !o.failed ? ` (exit ${o.code})` : ''}`);
const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const failed = outcomes.reduce((n, o) => n + o.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(outcomes.some((o) => o.code !== 0) ? 1 : 0);
