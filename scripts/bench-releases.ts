/**
 * Figures for docs/benchmarks.md and docs/releases.md, in one run: publishing a release of 10,000 items
 * across three collections (each item a document whose draft the release makes live), and the latency of a
 * list read with two releases stacked (`release=a,b`) against the same list read live. In-process through
 * the Local API, on SQLite and, when a PostgreSQL URL is given (or CMS_TEST_POSTGRES_URL is set), on
 * PostgreSQL too.
 *
 *   bun scripts/bench-releases.ts
 *   bun scripts/bench-releases.ts --items 10000 --postgres postgres://cms_test:cms_test@127.0.0.1:5432/postgres
 *   bun scripts/bench-releases.ts --engine postgres --postgres postgres://…   # one engine only
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getCMS } from '../src/local.ts';
import type { Where } from '../src/config/types.ts';
import type { CMS } from '../src/cms.ts';
import { createTestDatabase } from '../test/support/postgres.ts';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '10000' },
    reads: { type: 'string', default: '200' },
    postgres: { type: 'string' },
    /** `sqlite`, `postgres` or both (the default, PostgreSQL only with a URL). */
    engine: { type: 'string' },
  },
});
const ITEMS = Number(values.items);
const READS = Number(values.reads);
/** Items of the second, smaller release, stacked on the first in the preview. */
const SMALL = 500;
const COLLECTIONS = ['articles', 'products', 'pages'];
const postgres = values.postgres ?? process.env.CMS_TEST_POSTGRES_URL;
if (postgres) process.env.CMS_TEST_POSTGRES_URL = postgres;
const quiet = { info() {}, warn() {}, error: console.error };

/**
 * Adds an item to `release` for each document of these collections (up to `upTo` ids) pinning its
 * newest version (its draft), in one statement: adding items one by one answers the whole release each time, which
 * would make the seed, not the publish, what this measures.
 */
async function pinDrafts(cms: CMS, release: number, collections: string[], upTo = Number.MAX_SAFE_INTEGER) {
  const slugs = cms.store.dialect.inList('"slug"', collections);
  await cms.store.run(
    `INSERT INTO "_cms_release_items" ("release", "kind", "slug", "parent", "action", "version", "createdAt")
     SELECT ?, 'collection', "slug", "parent", 'publish', max("id"), ? FROM "_cms_versions"
     WHERE "kind" = 'collection' AND ${slugs.sql} AND "parent" <= ? GROUP BY "slug", "parent"`,
    [release, new Date().toISOString(), ...slugs.params, upTo],
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t0: number) => (Bun.nanoseconds() - t0) / 1e6;

type Result = {
  engine: string;
  seedS: number;
  publishMs: number;
  /** CPU time of this process during the publish: less disturbed by other load than wall-clock time. */
  publishCpuMs: number;
  /** Medians of wall-clock time and of this process's CPU time per read (PostgreSQL's work is in its server). */
  lists: { name: string; liveMs: number; previewMs: number; liveCpu: number; previewCpu: number }[];
};

async function run(engine: 'sqlite' | 'postgres'): Promise<Result> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-releases-'));
  const pg = engine === 'postgres' ? await createTestDatabase() : null;
  const cms = await getCMS({
    config: {
      database: pg ? pg.url : path.join(dir, 'data/cms.db'),
      releases: true,
      cache: false,
      collections: COLLECTIONS.map((slug) => ({
        slug,
        drafts: true,
        fields: [
          { name: 'title', type: 'text' as const, required: true },
          { name: 'price', type: 'number' as const },
          { name: 'body', type: 'textarea' as const },
        ],
      })),
    },
    rootDir: dir,
    log: quiet,
  });
  try {
    const t0 = Bun.nanoseconds();
    const big = (await cms.releases.create({ data: { title: 'Launch' } })).id as number;
    const small = (await cms.releases.create({ data: { title: 'Prices' } })).id as number;
    for (let i = 0; i < ITEMS; i++)
      await cms.create({
        collection: COLLECTIONS[i % COLLECTIONS.length],
        data: { title: `Item ${i}`, price: i, body: 'Lorem ipsum dolor sit amet. '.repeat(8) },
        draft: true,
      });
    await pinDrafts(cms.cms, big, COLLECTIONS);
    // The second release: a newer draft of the first SMALL documents of the first collection.
    for (let id = 1; id <= Math.min(SMALL, ITEMS / COLLECTIONS.length); id++)
      await cms.update({ collection: COLLECTIONS[0], id, data: { price: id * 2 }, draft: true });
    await pinDrafts(cms.cms, small, [COLLECTIONS[0]], SMALL);
    const seedS = ms(t0) / 1000;

    const lists: Result['lists'] = [];
    const published: Where = { status: { equals: 'published' } };
    for (const [name, where] of [
      ['newest 10', undefined],
      ['newest 10 published', published],
    ] as const) {
      const read = (release?: number[]) =>
        cms.find({ collection: COLLECTIONS[0], limit: 10, sort: '-createdAt', where, release });
      for (let i = 0; i < 20; i++) await Promise.all([read(), read([big, small])]);
      const live = { wall: [] as number[], cpu: [] as number[] };
      const preview = { wall: [] as number[], cpu: [] as number[] };
      for (let i = 0; i < READS; i++) {
        // Alternating, so a change in the machine's speed hits both alike.
        for (const [times, release] of [
          [live, undefined],
          [preview, [big, small]],
        ] as const) {
          const t = Bun.nanoseconds();
          const cpu0 = process.cpuUsage();
          await read(release as number[] | undefined);
          const cpu = process.cpuUsage(cpu0);
          times.wall.push(ms(t));
          times.cpu.push((cpu.user + cpu.system) / 1000);
        }
      }
      lists.push({
        name,
        liveMs: median(live.wall),
        previewMs: median(preview.wall),
        liveCpu: median(live.cpu),
        previewCpu: median(preview.cpu),
      });
    }

    const t1 = Bun.nanoseconds();
    const cpu0 = process.cpuUsage();
    const done = await cms.releases.publish({ id: big });
    const publishMs = ms(t1);
    const cpu = process.cpuUsage(cpu0);
    const publishCpuMs = (cpu.user + cpu.system) / 1000;
    if (done.status !== 'published') throw new Error('the release was not published');
    const live = await cms.count({ collection: COLLECTIONS[1], where: published });
    if (live.totalDocs !== Math.floor(ITEMS / COLLECTIONS.length)) throw new Error(`published ${live.totalDocs}`);
    return { engine, seedS, publishMs, publishCpuMs, lists };
  } finally {
    await cms.close();
    await pg?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const engines = (postgres ? ['sqlite', 'postgres'] : ['sqlite']).filter(
  (e) => !values.engine || e === values.engine,
) as ('sqlite' | 'postgres')[];
console.log(`${ITEMS} items across ${COLLECTIONS.length} collections; preview: ${ITEMS} + ${SMALL} items stacked`);
for (const engine of engines) {
  const r = await run(engine);
  console.log(`\n${engine} (seeded in ${r.seedS.toFixed(1)} s)`);
  console.log(
    `  publish ${ITEMS} items: ${r.publishMs.toFixed(0)} ms (${r.publishCpuMs.toFixed(0)} ms of CPU in this process)`,
  );
  for (const l of r.lists)
    console.log(
      `  list "${l.name}" of ${COLLECTIONS[0]}: live ${l.liveMs.toFixed(2)} ms (CPU ${l.liveCpu.toFixed(2)}), ` +
        `release=a,b ${l.previewMs.toFixed(2)} ms (CPU ${l.previewCpu.toFixed(2)}), medians of ${READS}`,
    );
}
