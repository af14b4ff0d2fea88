// Seeds the Payload side as scripts/bench/posts.ts seeds the CMS: one user, then BENCH_DOCS posts by it through
// the Local API, one create each, with the same fields and timestamps (2026-01-01 plus one second per post)
// so both list the same documents in the same order. Run by `payload run seed.ts` outside production, so
// the SQLite adapter pushes its schema (tables and the compound index) before the first write.
import config from '@payload-config';
import { getPayload } from 'payload';

const total = Number(process.env.BENCH_DOCS);
const body = String(process.env.BENCH_BODY);
const payload = await getPayload({ config });
const started = performance.now();
const user = await payload.create({ collection: 'users', data: { email: 'bench@example.com', password: 'password123' } });
let time = Date.parse('2026-01-01T00:00:00Z');
for (let i = 0; i < total; i++) {
  time += 1000;
  const at = new Date(time).toISOString();
  await payload.create({ collection: 'posts', data: { title: `Post ${i}`, body, status: i % 2 ? 'published' : 'draft', views: i, author: user.id, createdAt: at, updatedAt: at } });
}
console.log(`seeded ${total} posts into Payload in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(0);
