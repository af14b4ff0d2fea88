/**
 * The baseline: a bare Bun.serve answering the same bytes as the CMS for the three benchmarked requests,
 * straight from prepared bun:sqlite statements. Run as its own process: `bun bare-server.ts <db> <port>`.
 */
import { Database } from 'bun:sqlite';

const [file, port] = process.argv.slice(2);
const db = new Database(file, { readonly: false, strict: true });
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA busy_timeout = 5000');
const count = db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM "posts" WHERE "status" = ?');
const page = db.query<Record<string, unknown>, [string, number, number]>('SELECT * FROM "posts" WHERE "status" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ? OFFSET ?');
const one = db.query<Record<string, unknown>, [number]>('SELECT * FROM "posts" WHERE "id" = ?');
const insert = db.query<Record<string, unknown>, [string, string, string, number, string, string]>(
  'INSERT INTO "posts" ("title", "body", "status", "views", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?) RETURNING *');

const shape = (r: Record<string, unknown>) => ({ id: r.id, title: r.title, body: r.body, status: r.status, views: r.views, createdAt: r.createdAt, updatedAt: r.updatedAt });

Bun.serve({
  port: Number(port),
  hostname: '127.0.0.1',
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/api/cms/posts' && request.method === 'GET') {
      const status = url.searchParams.get('where[status][equals]') ?? 'published';
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const totalDocs = count.get(status)!.n;
      const docs = page.all(status, limit, 0).map(shape);
      const totalPages = Math.max(1, Math.ceil(totalDocs / limit));
      return Response.json({ docs, totalDocs, limit, page: 1, totalPages, pagingCounter: 1, hasNextPage: totalPages > 1, hasPrevPage: false, nextPage: totalPages > 1 ? 2 : null, prevPage: null });
    }
    if (url.pathname.startsWith('/api/cms/posts/') && request.method === 'GET') {
      const row = one.get(Number(url.pathname.slice('/api/cms/posts/'.length)));
      return row ? Response.json(shape(row)) : Response.json({ errors: [{ message: 'Not Found' }] }, { status: 404 });
    }
    if (url.pathname === '/api/cms/posts' && request.method === 'POST') {
      const data = await request.json();
      const now = new Date().toISOString();
      const row = insert.get(data.title, data.body, data.status, data.views, now, now)!;
      return Response.json({ doc: shape(row), message: 'Successfully created.' }, { status: 201 });
    }
    return new Response('not found', { status: 404 });
  },
});
console.log('ready');
