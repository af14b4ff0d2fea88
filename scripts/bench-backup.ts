/**
 * Figure for docs/operations.md "Backups": how long a backup of a database of --db-mb plus --uploads-mb of
 * uploads takes while writers keep creating documents, how many writes the server answered meanwhile, and
 * the write latency during the backup against the same writers without one. The server runs in its own
 * process (`cms serve`); the backup is `POST /backups`, so it shares that process with the writes.
 *
 *   bun scripts/bench-backup.ts                              # the full size: 100 MB database, 1 GB uploads
 *   bun scripts/bench-backup.ts --db-mb 20 --uploads-mb 200  # a small run
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { registerFirstAdmin } from '../src/operations/account/first-admin.ts';
import { createContext } from '../src/operation-context.ts';
import { createCMS } from '../src/create-cms.ts';
import { startChildServer } from '../test/support/child-server.ts';

const { values } = parseArgs({
  options: {
    'db-mb': { type: 'string', default: '100' },
    'uploads-mb': { type: 'string', default: '1000' },
    writers: { type: 'string', default: '4' },
  },
});
const dbMB = Number(values['db-mb']);
const uploadsMB = Number(values['uploads-mb']);
const WRITERS = Number(values.writers);
const BASELINE_MS = 5000;
const config = {
  database: 'data/cms.db',
  collections: [
    {
      slug: 'posts',
      fields: [
        { name: 'title', type: 'text' },
        { name: 'body', type: 'textarea' },
      ],
    },
  ],
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-backup-'));
const configPath = path.join(dir, 'cms.config.json');
fs.writeFileSync(configPath, JSON.stringify(config));

// Fill: the admin the server's child logs in as (test/support/child-server.ts), documents of ~10 KB straight
// into the table, and incompressible upload files (like images) in the folder.
{
  const cms = await createCMS({ configPath, log: { info() {}, warn() {}, error() {} } });
  await registerFirstAdmin(createContext(cms), { data: { email: 'admin@example.com', password: 'password123' } });
  const body = 'lorem ipsum dolor sit amet '.repeat(380);
  const now = new Date().toISOString();
  for (let done = 0; done < dbMB * 100; done += 1000) {
    await cms.store.transaction(async (tx) => {
      for (let i = 0; i < 1000; i++)
        await tx.run('INSERT INTO "posts" ("title", "body", "createdAt", "updatedAt") VALUES (?, ?, ?, ?)', [
          `seed ${done + i}`,
          body,
          now,
          now,
        ]);
    });
  }
  await cms.close();
  fs.mkdirSync(path.join(dir, 'uploads'), { recursive: true });
  const fileMB = 10;
  for (let i = 0; i < Math.ceil(uploadsMB / fileMB); i++) {
    fs.writeFileSync(
      path.join(dir, 'uploads', `photo-${i.toString(36).padStart(10, '0')}.jpg`),
      randomBytes(fileMB * 1_048_576),
    );
  }
}
const dbBytes = fs.statSync(path.join(dir, 'data/cms.db')).size;

const server = await startChildServer(config, { dir });
const api = server.api;
const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };

/** WRITERS loops of POST /posts until `until` resolves; the latency of each acknowledged write. */
async function write(until: Promise<unknown>): Promise<number[]> {
  let stop = false;
  void until.then(() => (stop = true));
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, n) => {
      for (let i = 0; !stop; i++) {
        const t0 = performance.now();
        const res = await fetch(`${api}/posts`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ title: `w${n}-${i}`, body: 'x'.repeat(1000) }),
        });
        if (res.status !== 201) throw new Error(`write failed: ${res.status} ${await res.text()}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return latencies;
}

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: ms.length, median: sorted[Math.floor(sorted.length / 2)], p99: sorted[Math.floor(sorted.length * 0.99)] };
};

await write(Bun.sleep(1000)); // warm up
const baseline = stats(await write(Bun.sleep(BASELINE_MS)));
const started = performance.now();
const backup = fetch(`${api}/backups`, { method: 'POST', headers: { authorization: headers.authorization } }).then(
  (r) => r.json() as Promise<{ doc: { name: string; size: number } }>,
);
const during = stats(await write(backup));
const seconds = (performance.now() - started) / 1000;
const { doc } = await backup;

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(0);
console.log(`database ${mb(dbBytes)} MB, uploads ${uploadsMB} MB, ${WRITERS} writers, ${os.cpus().length} cores`);
console.log(`backup: ${seconds.toFixed(1)} s, archive ${mb(doc.size)} MB (${doc.name})`);
console.log(
  `writes without backup: ${(baseline.n / (BASELINE_MS / 1000)).toFixed(0)}/s, median ${baseline.median.toFixed(1)} ms, p99 ${baseline.p99.toFixed(1)} ms`,
);
console.log(
  `writes during backup:  ${during.n} served (${(during.n / seconds).toFixed(0)}/s), median ${during.median.toFixed(1)} ms, p99 ${during.p99.toFixed(1)} ms`,
);
console.log(
  `write latency ratio during/without: median ${(during.median / baseline.median).toFixed(2)}x, p99 ${(during.p99 / baseline.p99).toFixed(2)}x`,
);

await server.stop(); // and removes the folder
