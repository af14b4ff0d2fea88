/**
 * Start-up (docs/operations.md): `cms serve` loads what answering requests needs and nothing else, and the
 * work that can wait (the job loop's first run with the crash sweep) waits until after the first answers.
 * Figures: docs/benchmarks.md ("Start-up and memory"). The binary's lazy features: test/build/build.test.ts.
 */
import { describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { createCMS } from '../../src/create-cms.ts';
import { startServer } from '../../src/server.ts';
import { manualClock } from '../../src/clock.ts';
import { tempDir } from '../harness.ts';
import { spawnListening } from '../support/spawn-listening.ts';
import { Database } from 'bun:sqlite';
import { FIRST_RUN_DELAY_MS } from '../../src/jobs/job-loop.ts';
import { CHECKPOINT_AFTER_MS } from '../../src/db/sqlite/checkpointer.ts';

const CONFIG = `export default {
  collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text', required: true }] }],
}
`;

/**
 * Modules only some servers or some requests need; each must load on first use, not at start. A lazy
 * feature's access check (`authorize-*.ts`, a few lines) is the exception: its route checks who asks before
 * it loads the rest.
 */
const LAZY = [
  /^src\/backups\/(?!authorize-[\w-]+\.ts$)/, // backups: tar, gzip, targets
  /^src\/openapi\//, // the OpenAPI generator
  /^src\/codegen\//, // types, dev only
  /^src\/db\/postgres\/(?!connect\.ts$)/, // the PostgreSQL store and its diff (connect.ts: URL helpers the sanitizer uses; it loads Bun.SQL only when connecting)
  /^src\/db\/sqlite\/schema-diff\.ts$/, // drizzle's table builders, only when the config changed
  /^src\/uploads\/storage\/s3\.ts$/, // the S3 adapter
  /^src\/graphql\//, // GraphQL: on the first GraphQL request
  /^src\/http\/routes\/graphql-serve\.ts$/,
  /^src\/mcp\/(?!request-bound\.ts$)/, // MCP: its server and tools on the first call (request-bound.ts: the per-caller bound checked first)
  /node_modules\/graphql\//,
  /node_modules\/@modelcontextprotocol\//,
  /node_modules\/zod\//,
  /node_modules\/ajv\//,
  /node_modules\/(qs|side-channel|get-intrinsic|object-inspect)\//, // the query-string parser, on the first query string
  /node_modules\/drizzle-orm\//,
  /node_modules\/drizzle-kit\//,
  /node_modules\/nodemailer\//,
  /node_modules\/sharp\//,
  /node_modules\/file-type\//,
  /node_modules\/marked\//, // the Markdown reader, on the first Markdown write to a rich text field
  /node_modules\/htmlparser2\//,
];

async function serveAndList(dir: string): Promise<{ init: string[]; openapi: string[] }> {
  const child = Bun.spawn([process.execPath, path.join(import.meta.dir, '../fixtures/serve-loaded-modules.ts'), dir], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`serve child exited ${code}: ${err}${out}`);
  const line = out.split('\n').find((l) => l.startsWith('modules '));
  if (!line) throw new Error(`no module list in: ${out}`);
  return JSON.parse(line.slice('modules '.length));
}

const lazyLoaded = (modules: string[]) => modules.filter((m) => LAZY.some((pattern) => pattern.test(m)));

describe('cms serve on SQLite loads at start only what answering needs', () => {
  test('an existing project: no lazy module is loaded by the first answer; the OpenAPI generator loads on its first request', async () => {
    const dir = tempDir('cms-startup-');
    fs.writeFileSync(path.join(dir, 'cms.config.ts'), CONFIG);
    await serveAndList(dir); // the first start makes the database and its migration
    const { init, openapi } = await serveAndList(dir);
    expect(init).toContain('src/http/app.ts'); // the list is real
    expect(lazyLoaded(init)).toEqual([]);
    expect(openapi).toContain('src/openapi/document.ts');
    fs.rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  test('an empty project: the schema diff loads to make the first migration, nothing else lazy does', async () => {
    const dir = tempDir('cms-startup-');
    fs.writeFileSync(path.join(dir, 'cms.config.ts'), CONFIG);
    const { init } = await serveAndList(dir);
    expect(fs.existsSync(path.join(dir, 'migrations/sqlite/0000_init.sql'))).toBe(true);
    const lazy = lazyLoaded(init);
    expect(lazy).toContain('src/db/sqlite/schema-diff.ts');
    expect(lazy.filter((m) => !/schema-diff|drizzle/.test(m))).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 30_000);
});

describe('the job loop waits for the first answers', () => {
  test('the start-up run (crash sweep included) runs after the first request is answered, not before', async () => {
    const dir = tempDir('cms-startup-');
    const cms = await createCMS({
      config: { collections: [] },
      rootDir: dir,
      clock: manualClock(Date.parse('2026-01-01T00:00:00Z')),
      log: { info() {}, warn() {}, error() {} },
    });
    const server = startServer(cms, { port: 0 });
    const lastSweep = async () =>
      (
        await cms.store.get<{ value: string }>(
          `SELECT "value" FROM "_cms_settings" WHERE "key" = 'uploads.lastSweepAt'`,
        )
      )?.value ?? null;
    expect((await fetch(`${server.url}/api/cms/users/init`)).status).toBe(200);
    expect(await lastSweep()).toBeNull();
    const deadline = Date.now() + 5000;
    while ((await lastSweep()) === null && Date.now() < deadline) await Bun.sleep(10);
    expect(await lastSweep()).toBe(String(Date.parse('2026-01-01T00:00:00Z')));
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('a restart of an up-to-date project writes nothing', () => {
  /** Frames in the write-ahead log, from its index as another process sees it (this test is not the server). */
  const walFrames = (db: string) => {
    const header = fs.readFileSync(`${db}-shm`).subarray(0, 100);
    return new Uint32Array(header.buffer, header.byteOffset, 25)[4];
  };
  const threadNames = (pid: number) =>
    fs.readdirSync(`/proc/${pid}/task`).map((task) => fs.readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim());

  test('no commit once it has answered and run its start-up jobs, so no checkpoint worker is started', async () => {
    const dir = tempDir('cms-startup-');
    fs.writeFileSync(path.join(dir, 'cms.config.ts'), CONFIG);
    const db = path.join(dir, 'data/cms.db');
    const serve = () =>
      spawnListening([process.execPath, path.join(import.meta.dir, '../../src/cli/main.ts'), 'serve', '--port', '0'], {
        cwd: dir,
        env: { ...process.env, NODE_ENV: 'production' },
      });
    // The first start makes the database and records its sweep of upload leftovers.
    const first = await serve();
    expect((await fetch(`${first.origin}/api/cms/users/init`)).status).toBe(200);
    const swept = () => {
      const check = new Database(db, { readonly: true });
      const row = check.query(`SELECT 1 AS "found" FROM "_cms_settings" WHERE "key" = 'uploads.lastSweepAt'`).get();
      check.close();
      return row !== null;
    };
    for (const deadline = Date.now() + 10_000; !swept() && Date.now() < deadline; ) await Bun.sleep(20);
    expect(swept()).toBe(true);
    await first.stop();
    // What the first server left in the log (nothing, unless its last checkpoint did not get to run).
    const left = fs.existsSync(`${db}-shm`) ? walFrames(db) : 0;

    const second = await serve();
    expect((await fetch(`${second.origin}/api/cms/users/init`)).status).toBe(200);
    // Past the start-up run (it follows the first answer) and the pause after which a commit is checkpointed.
    await Bun.sleep(FIRST_RUN_DELAY_MS + CHECKPOINT_AFTER_MS + 750);
    expect(walFrames(db)).toBe(left);
    if (process.platform === 'linux') expect(threadNames(second.proc.pid)).not.toContain('Worker');
    await second.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});

describe('CMS_STARTUP_TIMING', () => {
  const serveOnce = async (env: Record<string, string>) => {
    const dir = tempDir('cms-startup-');
    fs.writeFileSync(path.join(dir, 'cms.config.ts'), CONFIG);
    const server = await spawnListening(
      [process.execPath, path.join(import.meta.dir, '../../src/cli/main.ts'), 'serve', '--port', '0'],
      { cwd: dir, env: { ...process.env, NODE_ENV: 'production', ...env } },
    );
    const answer = await fetch(`${server.origin}/api/cms/users/init`);
    expect(answer.status).toBe(200);
    const printed = await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    return printed;
  };

  test('set: one line per start-up step on stderr, up to the first answer; unset: none', async () => {
    const marked = await serveOnce({ CMS_STARTUP_TIMING: '1' });
    const steps = marked
      .split('\n')
      .filter((l) => l.startsWith('startup '))
      .map((l) => l.replace(/^startup\s+[\d.]+ ms\s+cpu\s+[\d.]+ ms\s+[\d.]+ MB\s+/, ''));
    expect(steps).toEqual([
      'main',
      'serve loaded',
      'createCMS',
      'config loaded',
      'store open',
      'system migrations',
      'config migrations',
      'storage, secret',
      'app built',
      'listening',
      'first answer',
    ]);
    expect(await serveOnce({})).not.toContain('startup ');
  }, 30_000);
});
