/** Start-up floor: `Bun.serve` alone answering the CMS's first request (scripts/bench/floors.ts compiles it). */
const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
Bun.serve({
  port,
  hostname: '127.0.0.1',
  fetch: () => Response.json({ initialized: true }),
});
