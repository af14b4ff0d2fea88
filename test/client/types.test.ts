// Runs once (on the SQLite pass): compiles the client's types; no server.
/**
 * The HTTP client's types (client/index.d.ts) ship on their own, so they spell out the shapes the Local API
 * takes from src/wire/ (the `where` operators of src/query/operators.ts, `CMSTypes`, sort and read options).
 * A fixture that compiles only while both are the same type, compiled here by tsc, holds the copies equal.
 */
import { expect, test } from 'bun:test';
import path from 'node:path';

const ROOT = path.join(import.meta.dir, '../..');
const FIXTURE = 'test/fixtures/client-types/same-shapes.ts';

test('client/index.d.ts declares the same wire shapes as src/wire/', () => {
  const flags = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'ESNext', '--module', 'ESNext'];
  const tsc = Bun.spawnSync(
    [
      path.join(ROOT, 'node_modules/.bin/tsc'),
      ...flags,
      '--moduleResolution',
      'bundler',
      '--allowImportingTsExtensions',
      '--types',
      'bun',
      '--ignoreConfig',
      '--pretty',
      'false',
      FIXTURE,
    ],
    { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' },
  );
  expect({ out: tsc.stdout.toString() + tsc.stderr.toString(), code: tsc.exitCode }).toEqual({ out: '', code: 0 });
}, 60_000);
