/**
 * A serving `cms` keeps answering while other processes use its SQLite file: a bun:sqlite script that
 * reads, writes and checkpoints (down to an empty log) and `cms backup` (its snapshot path) run beside
 * it again and again, under read and write load. The server must neither die nor fail a request, and
 * every create it acknowledged must be there afterwards. (Background: docs/operations.md "Other processes
 * on the database file".)
 */
import { describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TEST_ENGINE, tempDir } from '../harness.ts';
import { startChildServer } from '../support/child-server.ts';

const config = {
  collections: [
    { slug: 'notes', access: { read: () => true }, fields: [{ name: 'title', type: 'text', required: true }] },
  ],
};
const ROUNDS = 6;

/** One short-lived process on the file, as an operator's `sqlite3` session or a Local API script would be. */
const OUTSIDE_SCRIPT = `
const { Database } = require('bun:sqlite');
const db = new Database(process.argv[1]);
db.exec('PRAGMA busy_timeout = 5000');
db.query('SELECT count(*) FROM "notes"').get();
db.exec('CREATE TABLE IF NOT EXISTS "outside_marks" ("at" INTEGER)');
db.query('INSERT INTO "outside_marks" VALUES (?)').run(Date.now());
db.query('PRAGMA wal_checkpoint(TRUNCATE)').get();
db.close();
`;

function run(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe.skipIf(DEFAULT_TEST_ENGINE !== 'sqlite')('other processes on the SQLite file of a running server', () => {
  test(`${ROUNDS} rounds of an outside script and cms backup under load: the server answers throughout`, async () => {
    const server = await startChildServer(config);
    const out = tempDir('cms-second-process-out-');
    const file = path.join(server.dir, 'data/cms.db');
    const main = path.join(import.meta.dir, '../../src/cli/main.ts');
    const configPath = path.join(server.dir, 'cms.config.json');
    const acknowledged = new Set<number>();
    const failures: string[] = [];
    let loading = true;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${server.token}` };
    const load = Array.from({ length: 6 }, async (_, w) => {
      for (let i = 0; loading; i++) {
        try {
          if (w % 2) {
            const res = await fetch(`${server.api}/notes?limit=5`, { headers });
            if (res.status !== 200) failures.push(`read ${res.status}`);
            await res.arrayBuffer();
          } else {
            const res = await fetch(`${server.api}/notes`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ title: `w${w}-${i}` }),
            });
            if (res.status === 201) acknowledged.add(((await res.json()) as { doc: { id: number } }).doc.id);
            else failures.push(`create ${res.status}`);
          }
        } catch (error) {
          failures.push(`${(error as Error).message}`);
          if (server.died()) return;
        }
      }
    });
    try {
      for (let round = 0; round < ROUNDS && !server.died(); round++) {
        const outside = await run(['-e', OUTSIDE_SCRIPT, file], server.dir);
        expect(outside.output).toBe('');
        expect(outside.code).toBe(0);
        const backup = await run([main, 'backup', '--out', out, '--config', configPath], server.dir);
        expect(backup.output).toContain('wrote ');
        expect(backup.code).toBe(0);
      }
      loading = false;
      await Promise.all(load);
      expect(server.died()).toBeNull();
      expect(failures).toEqual([]);
      expect(acknowledged.size).toBeGreaterThan(ROUNDS);
      const res = await fetch(`${server.api}/notes?pagination=false&depth=0&select[title]=true`, { headers });
      const stored = new Set(((await res.json()) as { docs: { id: number }[] }).docs.map((d) => d.id));
      expect([...acknowledged].filter((id) => !stored.has(id))).toEqual([]);
    } finally {
      loading = false;
      await Promise.all(load);
      if (server.died()) fs.rmSync(server.dir, { recursive: true, force: true });
      else await server.stop();
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
