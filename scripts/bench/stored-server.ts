/**
 * The ceiling for answers served from the response cache: a bare Bun.serve handler returning bytes it
 * fetched once from the CMS, with the same headers (content type, ETag, Cache-Control), looked up by path.
 * Run as its own process: `bun stored-server.ts <port> <cms origin> <path>…`; a path followed by a line
 * break and a body is fetched with that body POSTed as JSON (a GraphQL query), and answered whatever the method.
 */
const [port, origin, ...paths] = process.argv.slice(2);
const stored = new Map<string, { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> }>();
for (const arg of paths) {
  const [p, body] = arg.split('\n', 2) as [string, string | undefined];
  const res = await fetch(
    `${origin}${p}`,
    body === undefined ? {} : { method: 'POST', body, headers: { 'content-type': 'application/json' } },
  );
  if (!res.ok) throw new Error(`${p}: ${res.status}`);
  const headers: Record<string, string> = {
    'content-type': res.headers.get('content-type')!,
    etag: res.headers.get('etag') ?? '',
    'cache-control': res.headers.get('cache-control') ?? '',
  };
  stored.set(p, { body: new Uint8Array(await res.arrayBuffer()), headers });
}

Bun.serve({
  port: Number(port),
  hostname: '127.0.0.1',
  fetch(request) {
    const url = request.url;
    const kept = stored.get(url.slice(url.indexOf('/', url.indexOf('//') + 2)));
    return kept ? new Response(kept.body, { headers: kept.headers }) : new Response('not found', { status: 404 });
  },
});
console.log('ready');
export {};
