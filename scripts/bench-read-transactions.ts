/**
 * `bun scripts/bench-read-transactions.ts`: what a primary-key read costs with bun:sqlite on a WAL file,
 * each in a read transaction of its own (as a bare server runs it) and 16 to a shared read transaction
 * (as the reads of one event-loop turn run in the CMS, src/db/sqlite/read-snapshot.ts): CPU and wall
 * time per read, medians of interleaved rounds.
 * Usage: bun scripts/bench-read-transactions.ts [--reads 16000] [--rounds 10]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import { median } from './bench/rounds.ts';

const { values } = parseArgs({
  options: { reads: { type: 'string', default: '16000' }, rounds: { type: 'string', default: '10' } },
});
const reads = Number(values.reads);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-read-tx-'));
const file = path.join(dir, 'posts.db');
const writer = new Database(file, { create: true, strict: true });
writer.exec('PRAGMA journal_mode = WAL');
writer.exec('PRAGMA synchronous = NORMAL');
writer.exec('CREATE TABLE "posts" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT, "body" TEXT)');
const insert = writer.query('INSERT INTO "posts" ("title", "body") VALUES (?, ?)');
writer.transaction(() => {
  for (let i = 0; i < 2000; i++) insert.run(`Post ${i}`, 'x'.repeat(340));
})();
const reader = new Database(file, { readonly: true, strict: true });
const one = reader.query('SELECT * FROM "posts" WHERE "id" = ?');
const begin = reader.prepare('BEGIN');
const commit = reader.prepare('COMMIT');

const ways: Record<string, () => void> = {
  'each its own': () => {
    for (let i = 0; i < reads; i++) one.get(1001);
  },
  '16 to a transaction': () => {
    for (let i = 0; i < reads; i += 16) {
      begin.run();
      for (let j = 0; j < 16; j++) one.get(1001);
      commit.run();
    }
  },
};
const seen = new Map(Object.keys(ways).map((k) => [k, { cpu: [] as number[], wall: [] as number[] }]));
for (let r = 0; r < Number(values.rounds); r++)
  for (const [name, run] of Object.entries(ways)) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    run();
    const used = process.cpuUsage(cpu);
    seen.get(name)!.cpu.push((used.user + used.system) / reads);
    seen.get(name)!.wall.push(((performance.now() - started) * 1000) / reads);
  }
for (const [name, { cpu, wall }] of seen)
  console.log(`${name.padEnd(20)} ${median(cpu).toFixed(2)} µs CPU, ${median(wall).toFixed(2)} µs wall per read`);
for (const s of [one, begin, commit]) s.finalize();
reader.close();
writer.close();
fs.rmSync(dir, { recursive: true, force: true });
