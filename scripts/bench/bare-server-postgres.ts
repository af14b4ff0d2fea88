/**
 * The PostgreSQL baseline: a bare Bun.serve answering the same bytes as the CMS for the three benchmarked
 * requests, from Bun.SQL on the same database with the CMS's pool size (10). Tagged templates are prepared
 * statements (Bun names and caches them per connection), so this is the cheapest honest way to ask.
 * Run as its own process: `bun bare-server-postgres.ts <postgres://url> <port>`.
 */
import { SQL } from 'bun';
import { serveBare } from './serve-bare.ts';

const [url, port] = process.argv.slice(2);
const sql = new SQL(url, { max: 10 });

serveBare(Number(port), {
  // The CMS's two statements, one after the other on the pool (no transaction); count(*) is int8, which
  // Bun.SQL answers as a string, hence the cast (the CMS's own).
  async list(status, limit) {
    const [{ n }] = await sql`SELECT CAST(count(*) AS INTEGER) AS "n" FROM "posts" WHERE "status" = ${status}`;
    const rows =
      await sql`SELECT * FROM "posts" WHERE "status" = ${status} ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit} OFFSET 0`;
    return { totalDocs: n, rows };
  },
  async one(id) {
    const [row] = await sql`SELECT * FROM "posts" WHERE "id" = ${id}`;
    return row ?? null;
  },
  // The id comes from the column's default, cms_next_id('posts'), as for the CMS's inserts.
  async insert(data, now) {
    const [row] = await sql`INSERT INTO "posts" ("title", "body", "status", "views", "createdAt", "updatedAt")
      VALUES (${data.title}, ${data.body}, ${data.status}, ${data.views}, ${now}, ${now}) RETURNING *`;
    return row;
  },
});
