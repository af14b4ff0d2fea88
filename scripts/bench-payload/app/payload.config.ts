// The Payload side of `bun scripts/bench-payload.ts`: the posts collection of scripts/bench.ts with its author, on SQLite,
// REST and GraphQL (no admin UI). Copied into the cache folder and built there, beside
// posts-collection.ts, which prepare.ts writes from scripts/bench/posts.ts so both products run one config.
import { sqliteAdapter } from '@payloadcms/db-sqlite';
import { buildConfig } from 'payload';
import posts from './posts-collection';

export default buildConfig({
  secret: process.env.PAYLOAD_SECRET || 'bench-secret-not-for-production',
  // Payload's default is SQLite's rollback journal; `--payload-wal` gives it the CMS's WAL + synchronous=NORMAL.
  db: sqliteAdapter({ client: { url: `file:${process.env.BENCH_PAYLOAD_DB}` }, wal: process.env.BENCH_PAYLOAD_WAL === '1' ? { synchronous: 'NORMAL' } : false }),
  telemetry: false,
  typescript: { autoGenerate: false },
  admin: { user: 'users' },
  collections: [
    { slug: 'users', auth: true, fields: [] },
    posts,
  ],
});
