/**
 * `bun scripts/fault-run.ts`: a repeatable run of the server under faults, printing what a client would
 * have lived through: acknowledged writes lost, failed requests by kind, and time to recover.
 *   1. kill -9 cycles: `cms serve` in its own process under concurrent writers, killed with SIGKILL and
 *      started again, `--cycles` times; every acknowledged create must be there after each restart.
 *   2. other processes on the file (SQLite): a bun:sqlite script that reads, writes and truncates the log,
 *      and `cms backup`, again and again while the writers go on; the server must not die.
 *   3. the database away: on PostgreSQL a TCP proxy in front of it cuts every connection and refuses new
 *      ones for `--outage` seconds; on SQLite another process holds the write lock as long. Then back.
 *   4. S3 away: the s3rver holding the uploads stopped for `--outage` seconds, then started again.
 * Usage: bun scripts/fault-run.ts [--cycles 5] [--outage 3] [--writers 8]
 * Engine: CMS_TEST_ENGINE=postgres with CMS_TEST_POSTGRES_URL (as the tests), else SQLite. Bounded: about a
 * minute on this project's 2-core machine. docs/operations.md "Under faults" has the figures of one run.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_TEST_ENGINE, tempDir } from '../test/harness.ts';
import { startChildServer, type ChildServer } from '../test/support/child-server.ts';
import { createTestDatabase } from '../test/support/postgres.ts';
import { startS3Server } from '../test/support/s3-server.ts';
import { tcpProxy } from '../test/support/tcp-proxy.ts';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '5' },
    outage: { type: 'string', default: '3' },
    writers: { type: 'string', default: '8' },
  },
});
const CYCLES = Number(values.cycles);
const OUTAGE_MS = Number(values.outage) * 1000;
const WRITERS = Number(values.writers);
const engine = DEFAULT_TEST_ENGINE;
const main = path.join(import.meta.dir, '../src/cli/main.ts');
const notes = {
  slug: 'notes',
  access: { read: () => true },
  fields: [{ name: 'title', type: 'text', required: true }],
};

/** Failed requests by kind: a status code, or the client error when there was no answer. */
const failures = new Map<string, number>();
const fail = (phase: string, kind: string) =>
  failures.set(`${phase}: ${kind}`, (failures.get(`${phase}: ${kind}`) ?? 0) + 1);
const acknowledged = new Map<number, string>();
const recoveries: { phase: string; ms: number }[] = [];
const started = performance.now();

type Load = { stop(): Promise<void>; lastSuccessAt(): number };

/** Writers creating notes (and, with `upload`, media) until stopped, counting answers by kind. */
function load(server: ChildServer, phase: string, options: { upload?: boolean } = {}): Load {
  let running = true;
  let lastSuccess = 0;
  const headers = { authorization: `Bearer ${server.token}` };
  const loops = Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = 0; running; i++) {
      const title = `${phase}-${w}-${i}`;
      try {
        const res =
          options.upload && w % 2
            ? await fetch(`${server.api}/media`, { method: 'POST', headers, body: upload(title) })
            : await fetch(`${server.api}/notes`, {
                method: 'POST',
                headers: { ...headers, 'content-type': 'application/json' },
                body: JSON.stringify({ title }),
              });
        const body = (await res.json().catch(() => null)) as { doc?: { id: number; title?: string } } | null;
        if (res.status === 201) {
          lastSuccess = performance.now();
          if (body?.doc?.title) acknowledged.set(body.doc.id, body.doc.title);
        } else {
          fail(phase, `${res.status}`);
          await Bun.sleep(50);
        }
      } catch (error) {
        fail(phase, (error as { code?: string }).code ?? 'no answer');
        if (server.died()) return;
        await Bun.sleep(50);
      }
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
    lastSuccessAt: () => lastSuccess,
  };
}

function upload(name: string): FormData {
  const form = new FormData();
  form.append('file', new File([`%PDF-1.7\n${name}\n%%EOF\n`], `${name}.pdf`, { type: 'application/pdf' }));
  return form;
}

/** Milliseconds from `since` until the next create is acknowledged (polling), at most 30 s. */
async function recovery(server: ChildServer, since: number): Promise<number> {
  while (performance.now() - since < 30_000) {
    const res = await fetch(`${server.api}/notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'probe' }),
    }).catch(() => null);
    if (res?.status === 201) return performance.now() - since;
    await Bun.sleep(20);
  }
  return Infinity;
}

function run(args: string[], cwd: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd,
      stdio: 'ignore',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    child.on('exit', (code) => resolve(code));
  });
}

async function lostWrites(server: ChildServer): Promise<number> {
  const res = await fetch(`${server.api}/notes?pagination=false&depth=0&select[title]=true`, {
    headers: { authorization: `Bearer ${server.token}` },
  });
  const stored = new Map(
    ((await res.json()) as { docs: { id: number; title: string }[] }).docs.map((d) => [d.id, d.title]),
  );
  return [...acknowledged].filter(([id, title]) => stored.get(id) !== title).length;
}

const s3 = await startS3Server('fault-run');
const storage = {
  type: 's3',
  bucket: s3.bucket,
  endpoint: s3.endpoint,
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
};
// PostgreSQL through a proxy the run can cut; SQLite on a file in the server's folder.
const pg = engine === 'postgres' ? await createTestDatabase() : null;
const proxy = pg ? tcpProxy({ host: new URL(pg.url).hostname, port: Number(new URL(pg.url).port || 5432) }) : null;
const database = pg ? Object.assign(new URL(pg.url), { port: String(proxy!.port) }).toString() : undefined;
const config = { ...(database ? { database } : {}), collections: [notes], upload: { storage } };
let server = await startChildServer(config);
const dir = server.dir;
const lost: number[] = [];
try {
  console.log(`fault run on ${engine}: ${CYCLES} kill -9 cycles, ${WRITERS} writers, outages of ${OUTAGE_MS / 1000} s`);

  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const writers = load(server, 'kill -9');
    await Bun.sleep(300 + Math.random() * 500);
    await server.crash();
    await writers.stop();
    const restarted = performance.now();
    server = await startChildServer(config, { dir });
    recoveries.push({ phase: 'kill -9 (restart to first acknowledged write)', ms: await recovery(server, restarted) });
    lost.push(await lostWrites(server));
  }
  console.log(
    `1. kill -9: ${CYCLES} cycles, ${acknowledged.size} acknowledged creates, lost after each restart: ${lost.join(', ')}`,
  );

  if (engine === 'sqlite') {
    const file = path.join(dir, 'data/cms.db');
    const out = tempDir('cms-fault-run-backups-');
    const outside = `const { Database } = require('bun:sqlite'); const db = new Database(process.argv[1]); db.exec('PRAGMA busy_timeout = 5000'); db.query('SELECT count(*) FROM "notes"').get(); db.exec('CREATE TABLE IF NOT EXISTS "outside_marks" ("at" INTEGER)'); db.query('INSERT INTO "outside_marks" VALUES (?)').run(Date.now()); db.query('PRAGMA wal_checkpoint(TRUNCATE)').get(); db.close();`;
    const writers = load(server, 'second process');
    let rounds = 0;
    let failedRuns = 0;
    for (const until = performance.now() + 8000; performance.now() < until && !server.died(); rounds++) {
      if ((await run(['-e', outside, file], dir)) !== 0) failedRuns++;
      if ((await run([main, 'backup', '--out', out, '--config', path.join(dir, 'cms.config.json')], dir)) !== 0)
        failedRuns++;
    }
    await writers.stop();
    fs.rmSync(out, { recursive: true, force: true });
    console.log(
      `2. second process: ${rounds} rounds of a bun:sqlite script and cms backup; server ${server.died() ? `DIED (${server.died()})` : 'alive'}; failed outside runs ${failedRuns}`,
    );
  }

  {
    const writers = load(server, 'database away');
    await Bun.sleep(500);
    let released: Promise<unknown> = Promise.resolve();
    if (proxy) proxy.cut();
    else {
      const file = path.join(dir, 'data/cms.db');
      const holder = spawn(
        process.execPath,
        [
          '-e',
          `const { Database } = require('bun:sqlite'); const db = new Database(${JSON.stringify(file)}); db.exec('PRAGMA busy_timeout = 5000'); db.exec('BEGIN IMMEDIATE'); setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, ${OUTAGE_MS});`,
        ],
        { stdio: 'ignore' },
      );
      released = new Promise((resolve) => holder.once('exit', resolve));
    }
    await Bun.sleep(OUTAGE_MS);
    if (proxy) proxy.restore();
    await released;
    const back = performance.now();
    recoveries.push({ phase: 'database back (to first acknowledged write)', ms: await recovery(server, back) });
    await writers.stop();
    console.log(
      `3. database away for ${OUTAGE_MS / 1000} s (${proxy ? 'connections cut by a proxy' : 'write lock held by another process'})`,
    );
  }

  {
    const writers = load(server, 'S3 away', { upload: true });
    await Bun.sleep(500);
    await s3.pause();
    await Bun.sleep(OUTAGE_MS);
    await s3.resume();
    const back = performance.now();
    const headers = { authorization: `Bearer ${server.token}` };
    let ms = Infinity;
    while (performance.now() - back < 30_000) {
      const res = await fetch(`${server.api}/media`, { method: 'POST', headers, body: upload('probe') }).catch(
        () => null,
      );
      if (res?.status === 201) {
        ms = performance.now() - back;
        break;
      }
      await Bun.sleep(20);
    }
    recoveries.push({ phase: 'S3 back (to first acknowledged upload)', ms });
    await writers.stop();
    console.log(`4. S3 away for ${OUTAGE_MS / 1000} s`);
  }

  const finalLost = await lostWrites(server);
  console.log('\nresults');
  console.log(
    `- acknowledged creates: ${acknowledged.size}; lost: ${finalLost} (after every kill -9 restart: ${lost.join(', ')})`,
  );
  console.log(`- server died outside the kill -9 cycles: ${server.died() ?? 'no'}`);
  console.log('- failed requests by kind:');
  if (!failures.size) console.log('  none');
  for (const [kind, n] of [...failures].sort()) console.log(`  ${kind}: ${n}`);
  console.log('- time to recover:');
  for (const phase of [...new Set(recoveries.map((r) => r.phase))]) {
    const times = recoveries
      .filter((r) => r.phase === phase)
      .map((r) => r.ms)
      .sort((a, b) => a - b);
    console.log(
      `  ${phase}: median ${Math.round(times[Math.floor(times.length / 2)])} ms, max ${Math.round(times.at(-1)!)} ms (${times.length})`,
    );
  }
  console.log(`- run time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (finalLost > 0 || server.died()) process.exitCode = 1;
} finally {
  if (server.died()) fs.rmSync(dir, { recursive: true, force: true });
  else await server.stop();
  proxy?.cut();
  await pg?.drop();
  await s3.stop();
}
