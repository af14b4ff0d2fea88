/**
 * The floor for part 1 of `scripts/bench-blocks.ts`: a bare Bun.serve over the same SQLite file answering
 * the same two reads at depth 2 with the least work that gives the same document: the row, its `layout`
 * parsed, one `IN` query per related collection per level (authors, then their teams), the documents put
 * in place by hand and `JSON.stringify` of the result; the flat document is its row as JSON. No rules,
 * hooks, locales or checks. Run as its own process: `bun bare-blocks-server.ts <db> <port>`; it answers
 * `/pages/:id` and `/flats/:id`.
 */
import { Database } from 'bun:sqlite';

type Row = Record<string, unknown>;
const [file, port] = process.argv.slice(2);
const db = new Database(file, { readonly: true });
const pageRow = db.query<Row, [number]>('SELECT * FROM "pages" WHERE "id" = ?');
const flatRow = db.query<Row, [number]>('SELECT * FROM "flats" WHERE "id" = ?');
const authorsIn = db.query<Row, [string]>('SELECT * FROM "authors" WHERE "id" IN (SELECT value FROM json_each(?))');
const teamsIn = db.query<Row, [string]>('SELECT * FROM "teams" WHERE "id" IN (SELECT value FROM json_each(?))');
const SLOTS = ['first', 'second', 'third'] as const;
const json = { headers: { 'content-type': 'application/json; charset=utf-8' } };

/** Rows by id, in one query for all of `ids`. */
function byId(query: typeof authorsIn, ids: Set<unknown>): Map<unknown, Row> {
  return new Map(query.all(JSON.stringify([...ids])).map((row) => [row.id, row]));
}

function page(id: number): Row | null {
  const row = pageRow.get(id);
  if (!row) return null;
  const layout = JSON.parse(row.layout as string) as Row[];
  const authorIds = new Set<unknown>();
  for (const block of layout) for (const slot of SLOTS) if (block[slot] != null) authorIds.add(block[slot]);
  const authors = byId(authorsIn, authorIds);
  const teams = byId(teamsIn, new Set([...authors.values()].map((a) => a.team).filter((t) => t != null)));
  for (const author of authors.values()) author.team = teams.get(author.team) ?? null;
  for (const block of layout) for (const slot of SLOTS) block[slot] = authors.get(block[slot]) ?? null;
  return { ...row, layout };
}

Bun.serve({
  port: Number(port),
  hostname: '127.0.0.1',
  fetch(request) {
    const [, kind, id] = new URL(request.url).pathname.split('/');
    const doc = kind === 'pages' ? page(Number(id)) : kind === 'flats' ? flatRow.get(Number(id)) : null;
    return doc ? new Response(JSON.stringify(doc), json) : new Response('{}', { status: 404 });
  },
});
