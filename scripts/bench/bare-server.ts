/**
 * The baseline: a bare Bun.serve answering the same bytes as the CMS for the three benchmarked requests,
 * straight from prepared bun:sqlite statements. Run as its own process: `bun bare-server.ts <db> <port>`.
 */
import { Database } from 'bun:sqlite';
import { serveBare } from './serve-bare.ts';

const [file, port] = process.argv.slice(2);
const db = new Database(file, { readonly: false, strict: true });
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA busy_timeout = 5000');
// The CMS's durability setting (src/db/sqlite/store.ts): under FULL every commit would fsync and the
// bare inserts would be slower for a reason that has nothing to do with the CMS's work.
db.exec('PRAGMA synchronous = NORMAL');
const count = db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM "posts" WHERE "status" = ?');
const page = db.query<Record<string, unknown>, [string, number, number]>(
  'SELECT * FROM "posts" WHERE "status" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ? OFFSET ?',
);
const one = db.query<Record<string, unknown>, [number]>('SELECT * FROM "posts" WHERE "id" = ?');
const insert = db.query<Record<string, unknown>, [string, string, string, number, string, string]>(
  'INSERT INTO "posts" ("title", "body", "status", "views", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?) RETURNING *',
);

serveBare(Number(port), {
  list: (status, limit) => ({ totalDocs: count.get(status)!.n, rows: page.all(status, limit, 0) }),
  one: (id) => one.get(id),
  insert: (data, now) => insert.get(data.title, data.body, data.status, data.views, now, now)!,
});
