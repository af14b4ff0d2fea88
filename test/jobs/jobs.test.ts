/**
 * The job runner: `/jobs/run` (cron secret or admin), the Local API's runJobs, runners in two instances and
 * in two processes sharing one database (each job runs once), jobs due while the server was down, and the
 * in-process loop never running twice at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { createCMS } from '../../src/create-cms.ts';
import type { CMS } from '../../src/cms.ts';
import { manualClock } from '../../src/clock.ts';
import { startServer } from '../../src/server.ts';
import { getCMS } from '../../src/local.ts';
import { runJobs } from '../../src/jobs/run-jobs.ts';
import { startJobLoop } from '../../src/jobs/job-loop.ts';
import { createContext } from '../../src/operation-context.ts';
import { create } from '../../src/operations/create.ts';
import { scheduleAction } from '../../src/operations/schedule.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { quietLog, runScenarios, sharedTestDatabase, tempDir } from '../harness.ts';
import { draftsConfig, JOBS_SECRET } from '../fixtures/drafts-config.ts';

const HOUR = 3600_000;
const START = Date.parse('2026-01-01T00:00:00Z');
const emptyRun = { jobs: { ran: 0, failed: 0 }, webhooks: { sent: 0, failed: 0, pending: 0 } };
const shapeIsCounts = (res: { body: unknown }) => expect(res.body).toEqual(emptyRun);

runScenarios(
  '/jobs/run',
  draftsConfig,
  [
    {
      name: 'without credentials GET is a 401',
      method: 'GET',
      url: '/jobs/run',
      status: 401,
      contains: ['"errors"', 'The cron secret or an admin session is required.'],
    },
    {
      name: 'without credentials POST is a 401',
      method: 'POST',
      url: '/jobs/run',
      status: 401,
      contains: ['"errors"', 'The cron secret or an admin session is required.'],
      events: { '*': 0 },
    },
    {
      name: 'a wrong secret is a 401 (no valid credentials)',
      method: 'GET',
      url: '/jobs/run',
      headers: { authorization: 'Bearer not-the-secret' },
      status: 401,
      contains: ['"errors"', 'The cron secret or an admin session is required.'],
      events: { '*': 0 },
    },
    {
      name: 'the cron secret runs jobs (GET) and answers the counts',
      method: 'GET',
      url: '/jobs/run',
      headers: { authorization: `Bearer ${JOBS_SECRET}` },
      status: 200,
      check: shapeIsCounts,
    },
    {
      name: 'the cron secret runs jobs (POST)',
      method: 'POST',
      url: '/jobs/run',
      headers: { authorization: `Bearer ${JOBS_SECRET}` },
      status: 200,
      events: { '*': 0 },
      check: shapeIsCounts,
    },
    {
      name: 'an editor is a 403',
      as: 'editor',
      method: 'POST',
      url: '/jobs/run',
      status: 403,
      contains: ['"errors"', 'The cron secret or an admin is required.'],
      events: { '*': 0 },
    },
    {
      name: 'a viewer is a 403',
      as: 'viewer',
      method: 'GET',
      url: '/jobs/run',
      status: 403,
      contains: ['"errors"', 'The cron secret or an admin is required.'],
      events: { '*': 0 },
    },
    {
      name: 'an admin session (bearer) runs jobs',
      as: 'admin',
      method: 'GET',
      url: '/jobs/run',
      status: 200,
      check: shapeIsCounts,
    },
    {
      name: 'an admin cookie session runs jobs (POST with CSRF token)',
      as: 'cookie:admin',
      method: 'POST',
      url: '/jobs/run',
      status: 200,
      events: { '*': 0 },
      check: shapeIsCounts,
    },
    {
      name: 'an admin cookie POST without the CSRF token is a 403',
      as: 'cookie:admin',
      method: 'POST',
      url: '/jobs/run',
      headers: { 'x-csrf-token': 'wrong' },
      status: 403,
      contains: ['"errors"', 'Missing or invalid CSRF token.'],
      events: { '*': 0 },
    },
    {
      name: 'another method is a 405',
      method: 'PUT',
      url: '/jobs/run',
      status: 405,
      contains: ['"errors"', 'Method Not Allowed'],
      events: { '*': 0 },
    },
    {
      name: 'CMS_CRON_SECRET works too',
      method: 'GET',
      url: '/jobs/run',
      headers: { authorization: 'Bearer from-the-environment' },
      status: 200,
      // Read when the config is sanitized: the harness puts the variable back before the request.
      env: { CMS_CRON_SECRET: 'from-the-environment' },
      check: (res) => {
        expect(process.env.CMS_CRON_SECRET).toBeUndefined();
        shapeIsCounts(res);
      },
    },
    {
      name: 'the environment beats the config',
      method: 'GET',
      url: '/jobs/run',
      headers: { authorization: `Bearer ${JOBS_SECRET}` },
      status: 401,
      env: { CMS_CRON_SECRET: 'from-the-environment' },
      contains: ['"errors"', 'The cron secret or an admin session is required.'],
    },
  ],
  {},
);

/** Creates `count` draft posts with a publish scheduled an hour ahead, through the operations. */
async function draftsWithScheduledPublish(cms: CMS, count: number): Promise<void> {
  const ctx = createContext(cms, { overrideAccess: true });
  for (let i = 0; i < count; i++) {
    const doc = await create(ctx, { collection: 'posts', data: { title: `Post ${i}` }, draft: true });
    await scheduleAction(ctx, {
      collection: 'posts',
      id: doc.id as number,
      action: 'publish',
      at: new Date(cms.clock.now() + HOUR).toISOString(),
    });
  }
}

async function publishedVersionsPerPost(cms: CMS): Promise<number[]> {
  const rows = await cms.store.all<{ n: number }>(
    `SELECT "parent", CAST(sum(CASE WHEN "status" = 'published' THEN 1 ELSE 0 END) AS INTEGER) AS "n" FROM "_cms_versions" WHERE "slug" = 'posts' GROUP BY "parent" ORDER BY "parent"`,
  );
  return rows.map((r) => r.n);
}

describe('two runners on one database', () => {
  test('two instances (createCMS twice on one database) run each job once', async () => {
    const dir = tempDir();
    const clock = manualClock(START);
    const shared = await sharedTestDatabase(dir);
    const config = { ...draftsConfig(), database: shared.database };
    const a = await createCMS({ config, rootDir: dir, clock, log: quietLog });
    const b = await createCMS({ config, rootDir: dir, clock, log: quietLog });
    const published: string[] = [];
    a.events.on((e) => void (e.type === 'publish' && published.push(`a:${e.id}`)));
    b.events.on((e) => void (e.type === 'publish' && published.push(`b:${e.id}`)));
    await draftsWithScheduledPublish(a, 40);
    clock.advance(2 * HOUR);

    const [fromA, fromB] = await Promise.all([runJobs(a), runJobs(b)]);

    expect(fromA.jobs.failed + fromB.jobs.failed).toBe(0);
    expect(fromA.jobs.ran + fromB.jobs.ran).toBe(40);
    // Both runners really worked side by side, and no document was published twice.
    expect(fromA.jobs.ran).toBeGreaterThan(0);
    expect(fromB.jobs.ran).toBeGreaterThan(0);
    expect(published.length).toBe(40);
    expect(new Set(published.map((p) => p.split(':')[1])).size).toBe(40);
    expect(await publishedVersionsPerPost(a)).toEqual(Array(40).fill(1));
    expect(await Promise.all([runJobs(a), runJobs(b)])).toEqual([emptyRun, emptyRun]);
    await a.close();
    await b.close();
    await shared.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('two processes run each job once (200 jobs)', async () => {
    const dir = tempDir();
    const shared = await sharedTestDatabase(dir);
    // The jobs are due by the real clock, which the other process uses.
    const clock = manualClock(Date.now() - 2 * HOUR);
    const cms = await createCMS({
      config: { ...draftsConfig(), database: shared.database },
      rootDir: dir,
      clock,
      log: quietLog,
    });
    await draftsWithScheduledPublish(cms, 200);
    clock.set(Date.now());

    const child = Bun.spawn(
      ['bun', path.join(import.meta.dir, '../fixtures/run-jobs-process.ts'), dir, shared.database],
      {
        stdin: 'pipe',
        stdout: 'pipe',
        stderr: 'inherit',
      },
    );
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let output = '';
    while (!output.includes('ready\n')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the other process ended early: ${output}`);
      output += value;
    }
    child.stdin.write('go\n');
    await child.stdin.flush();
    const here = await runJobs(cms);
    while (!/\{.*\}\n/.test(output)) {
      const { value, done } = await reader.read();
      if (done) break;
      output += value;
    }
    await child.exited;
    const there = JSON.parse(output.slice(output.indexOf('{')).trim());

    expect(here.jobs.failed + there.jobs.failed).toBe(0);
    expect(here.jobs.ran + there.jobs.ran).toBe(200);
    expect(await publishedVersionsPerPost(cms)).toEqual(Array(200).fill(1));
    const states = await cms.store.all(
      'SELECT "state", CAST(count(*) AS INTEGER) AS "n" FROM "_cms_jobs" GROUP BY "state"',
    );
    expect(states).toEqual([{ state: 'done', n: 200 }]);
    await cms.close();
    await shared.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

describe('the job loop', () => {
  test('a job that fell due while the server was down runs when it starts', async () => {
    const dir = tempDir();
    const config = { ...draftsConfig(), database: path.join(dir, 'data/cms.db') };
    const before = await createCMS({ config, rootDir: dir, clock: manualClock(START), log: quietLog });
    await draftsWithScheduledPublish(before, 1);
    await before.close();

    const after = await createCMS({ config, rootDir: dir, clock: manualClock(START + 2 * HOUR), log: quietLog });
    const server = startServer(after, { port: 0 });
    const state = async () => (await after.store.get<{ state: string }>('SELECT state FROM _cms_jobs'))!.state;
    // The start-up run follows the first answer (a health check, usually).
    expect((await fetch(`${server.url}/api/cms/health`)).status).toBe(200);
    await until(async () => (await state()) === 'done', 'the job to run at start');
    const post = await (await fetch(`${server.url}/api/cms/posts/1`)).json();
    expect(post).toMatchObject({ title: 'Post 0', status: 'published' });
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a server started with jobLoop: false leaves the runner to /jobs/run', async () => {
    const dir = tempDir();
    const cms = await createCMS({
      config: { ...draftsConfig(), database: path.join(dir, 'data/cms.db') },
      rootDir: dir,
      clock: manualClock(START),
      log: quietLog,
    });
    await draftsWithScheduledPublish(cms, 1);
    (cms.clock as ReturnType<typeof manualClock>).advance(2 * HOUR);
    const server = startServer(cms, { port: 0, jobLoop: false });
    expect(cms.closers.length).toBe(0);
    const res = await fetch(`${server.url}/api/cms/jobs/run`, { headers: { authorization: `Bearer ${JOBS_SECRET}` } });
    expect(await res.json()).toEqual({ jobs: { ran: 1, failed: 0 }, webhooks: { sent: 0, failed: 0, pending: 0 } });
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('never two runs at once: ticks while a run is going are skipped; stop waits for it', async () => {
    let active = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const config: UserConfig = draftsConfig();
    config.collections![0].hooks = {
      // Only the runner's publishes (updates without a user) wait at the gate.
      beforeChange: [
        async ({ data, user, operation }) => {
          if (user || operation !== 'update') return data;
          active++;
          most = Math.max(most, active);
          await gate;
          active--;
          return data;
        },
      ],
    };
    const dir = tempDir();
    const clock = manualClock(START);
    const cms = await createCMS({
      config: { ...config, database: path.join(dir, 'data/cms.db') },
      rootDir: dir,
      clock,
      log: quietLog,
    });
    await draftsWithScheduledPublish(cms, 2);
    clock.advance(2 * HOUR);

    const loop = startJobLoop(cms, 5);
    await until(() => active === 1, 'the first job to start');
    await Bun.sleep(60); // a dozen ticks of the 5 ms timer pass while the first run is blocked
    const pending = await cms.store.get<{ n: number }>(`SELECT count(*) AS n FROM _cms_jobs WHERE state = 'pending'`);
    expect(pending!.n).toBe(1);
    release();
    await until(
      async () =>
        (await cms.store.get<{ n: number }>(`SELECT count(*) AS n FROM _cms_jobs WHERE state = 'done'`))!.n === 2,
      'both jobs',
    );
    await loop.stop();
    expect(most).toBe(1);
    await cms.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('Local API', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('runJobs() runs due jobs and answers the counts', async () => {
    const clock = manualClock(START);
    const api = await getCMS({
      config: { ...draftsConfig(), database: path.join(dir, 'data/cms.db') },
      rootDir: dir,
      clock,
      log: quietLog,
    });
    const post = await api.create({ collection: 'posts', data: { title: 'Local' }, draft: true });
    await scheduleAction(createContext(api.cms, { overrideAccess: true }), {
      collection: 'posts',
      id: post.id as number,
      action: 'publish',
      at: new Date(START + HOUR).toISOString(),
    });
    expect(await api.runJobs()).toEqual(emptyRun);
    clock.advance(HOUR);
    expect(await api.runJobs()).toEqual({ jobs: { ran: 1, failed: 0 }, webhooks: { sent: 0, failed: 0, pending: 0 } });
    expect(await api.findByID({ collection: 'posts', id: post.id as number })).toMatchObject({ status: 'published' });
    await api.close();
  });
});

runScenarios(
  'a cron secret that looks like an API key',
  { jobs: { secret: 'cms_looks_like_a_key' } },
  [
    {
      name: 'still runs jobs',
      method: 'POST',
      url: '/jobs/run',
      headers: { authorization: 'Bearer cms_looks_like_a_key' },
      status: 200,
      events: { '*': 0 },
      check: shapeIsCounts,
    },
    {
      name: 'names no user elsewhere',
      method: 'GET',
      url: '/api-keys',
      headers: { authorization: 'Bearer cms_looks_like_a_key' },
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
  ],
  {},
);
