/**
 * The HTTP side both bare baselines share: the three benchmarked requests answered with the CMS's bytes,
 * from whatever queries an engine's bare server passes in. Kept apart so the SQLite and PostgreSQL bare
 * servers differ only in how they ask their database.
 */
type PostRow = Record<string, unknown>;

export type BareQueries = {
  /** `totalDocs` and the first page, newest first. */
  list(
    status: string,
    limit: number,
  ): Promise<{ totalDocs: number; rows: PostRow[] }> | { totalDocs: number; rows: PostRow[] };
  one(id: number): Promise<PostRow | null> | PostRow | null;
  insert(data: { title: string; body: string; status: string; views: number }, now: string): Promise<PostRow> | PostRow;
};

const shape = (r: PostRow) => ({
  id: r.id,
  title: r.title,
  body: r.body,
  status: r.status,
  views: r.views,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export function serveBare(port: number, queries: BareQueries): void {
  Bun.serve({
    port,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === '/api/cms/posts' && request.method === 'GET') {
        const status = url.searchParams.get('where[status][equals]') ?? 'published';
        const limit = Number(url.searchParams.get('limit') ?? 10);
        const { totalDocs, rows } = await queries.list(status, limit);
        const totalPages = Math.max(1, Math.ceil(totalDocs / limit));
        return Response.json({
          docs: rows.map(shape),
          totalDocs,
          limit,
          page: 1,
          totalPages,
          pagingCounter: 1,
          hasNextPage: totalPages > 1,
          hasPrevPage: false,
          nextPage: totalPages > 1 ? 2 : null,
          prevPage: null,
        });
      }
      if (url.pathname.startsWith('/api/cms/posts/') && request.method === 'GET') {
        const row = await queries.one(Number(url.pathname.slice('/api/cms/posts/'.length)));
        return row ? Response.json(shape(row)) : Response.json({ errors: [{ message: 'Not Found' }] }, { status: 404 });
      }
      if (url.pathname === '/api/cms/posts' && request.method === 'POST') {
        const row = await queries.insert(await request.json(), new Date().toISOString());
        return Response.json({ doc: shape(row), message: 'Successfully created.' }, { status: 201 });
      }
      return new Response('not found', { status: 404 });
    },
  });
  console.log('ready');
}
