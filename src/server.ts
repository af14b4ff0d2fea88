/** Starts the HTTP server for an instance, and stops it cleanly (in-flight requests finish, database closed). */
import type { CMS } from './cms.ts';
import { createApp } from './http/app.ts';
import { rememberPeerAddress } from './http/client-ip.ts';
import { startJobLoop } from './jobs/job-loop.ts';

export type RunningServer = { url: string; port: number; stop(): Promise<void> };

/** `jobLoop` (default true): run the job runner in-process every minute until stopped (tests may turn it off). */
export function startServer(cms: CMS, options: { port?: number; host?: string; jobLoop?: boolean } = {}): RunningServer {
  const app = createApp(cms);
  const server = Bun.serve({
    port: options.port ?? 3000,
    hostname: options.host ?? '127.0.0.1',
    fetch: (request, srv) => {
      rememberPeerAddress(request, srv.requestIP(request)?.address);
      return app.handle(request);
    },
    error: () => new Response(JSON.stringify({ errors: [{ message: 'Something went wrong.' }] }), { status: 500 }),
    // Bodies of any size reach the app: uploads are limited while they stream (413 in the contract's
    // shape, src/uploads/multipart.ts), JSON bodies by readJSON (src/http/body.ts).
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
  });
  // Closers run last-in first; the job loop's goes first in the list so it stops last: the webhook
  // runtime aborts its in-flight sends before the loop waits for its own run to finish.
  if (options.jobLoop !== false) cms.closers.unshift(startJobLoop(cms).stop);
  const host = server.hostname?.includes(':') ? `[${server.hostname}]` : server.hostname;
  const url = `http://${host}:${server.port}`;
  return {
    url,
    port: server.port!,
    async stop() {
      await server.stop(false);
      await cms.close();
    },
  };
}
