/**
 * The floor for scripts/bench-realtime.ts `--bare`: a bare `Bun.serve` that holds the same SSE streams
 * (Bun's direct streams, as the CMS's) and, for each `POST /posts`, writes one event block to every
 * stream of the post's team, as the CMS does after its commit, with no database, access rule or read.
 * Speaks the same lines as scripts/bench/realtime-server.ts.
 */
const users = Number(process.argv[2] ?? 50);
const teams = Number(process.argv[4] ?? 10);
const encoder = new TextEncoder();
const now = () => performance.timeOrigin + performance.now();
const byTeam = new Map<number, ReadableStreamDirectController[]>();
let nextId = 0;

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  idleTimeout: 0,
  async fetch(req) {
    const url = new URL(req.url);
    if (url.pathname === '/api/realtime') {
      const team = Number(req.headers.get('authorization')?.split(' ')[1]) % teams;
      const source: Bun.DirectUnderlyingSource<Uint8Array> = {
        type: 'direct',
        pull(c) {
          c.write(encoder.encode('retry: 2000\n: open\n\n'));
          c.flush();
          const list = byTeam.get(team) ?? [];
          list.push(c);
          byTeam.set(team, list);
          return new Promise<void>(() => {});
        },
      };
      const body = new ReadableStream(source as unknown as ConstructorParameters<typeof ReadableStream<Uint8Array>>[0]);
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }
    if (url.pathname === '/api/posts' && req.method === 'POST') {
      const data = (await req.json()) as { title: string; team: number };
      const id = ++nextId;
      console.log(`COMMIT ${now()}`);
      const doc = { id, title: data.title, team: data.team };
      const block = encoder.encode(
        `id: ${id}\nevent: create\ndata: ${JSON.stringify({ type: 'create', topic: 'posts', collection: 'posts', id, doc })}\n\n`,
      );
      for (const c of byTeam.get(data.team) ?? []) {
        c.write(block);
        c.flush();
      }
      return Response.json({ doc }, { status: 201 });
    }
    return new Response('not found', { status: 404 });
  },
});
// Editors' "tokens" are their ids: the team is the id modulo the teams, as in the CMS's read rule.
const editors = Array.from({ length: users }, (_, i) => ({ id: i + 2, token: String(i + 2) }));
const info = { api: `http://127.0.0.1:${server.port}/api`, admin: '1', editors, pid: process.pid };
console.log(`READY ${JSON.stringify(info)}`);
process.on('SIGTERM', () => process.exit(0));
for await (const line of console) {
  if (line.trim() !== 'gc') continue;
  Bun.gc(true);
  console.log(`RSS ${process.memoryUsage.rss()}`);
}

export {};
