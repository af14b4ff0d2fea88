/** Starts the HTTP server for an instance, and stops it cleanly (in-flight requests finish, database closed). */
import type { CMS } from './cms.ts';
import { DEFAULT_IDLE_TIMEOUT_SECONDS } from './http/long-requests.ts';
import { flushRequestLog, type LogFormat } from './http/observe-request.ts';
import { createRequestHandler, unexpectedErrorResponse } from './http/request-handler.ts';
import { markServedOverHttps } from './http/secure-cookies.ts';
import { JOB_LOOP_INTERVAL_MS, startJobLoop } from './jobs/job-loop.ts';
import { closeRealtime } from './realtime/hub.ts';

export type RunningServer = { url: string; port: number; stop(): Promise<void> };

export type ServerOptions = {
  port?: number;
  host?: string;
  /** Run the job runner in-process every minute until stopped (default true; tests may turn it off). */
  jobLoop?: boolean;
  /** PEM certificate and key files: serve HTTPS, and session cookies become `Secure`. */
  tls?: { cert: string; key: string };
  /** One line per request through cms.log: `text` (default), `json` lines, or `off`. */
  logFormat?: LogFormat;
  /** Seconds a connection may stay silent while the server waits for the client (default 10, Bun's). */
  idleTimeout?: number;
};

export function startServer(cms: CMS, options: ServerOptions = {}): RunningServer {
  const logFormat = options.logFormat ?? 'text';
  const idleTimeout = options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
  const { promise: firstAnswer, resolve: onFirstAnswer } = Promise.withResolvers<void>();
  const handle = createRequestHandler(cms, { logFormat, idleTimeout, onFirstAnswer });
  if (options.tls) markServedOverHttps(cms);
  const server = Bun.serve({
    port: options.port ?? 3000,
    hostname: options.host ?? '127.0.0.1',
    ...(options.tls ? { tls: { cert: Bun.file(options.tls.cert), key: Bun.file(options.tls.key) } } : {}),
    fetch: (request, srv) => handle(request, srv),
    error: unexpectedErrorResponse,
    // Bodies of any size reach the app: uploads are limited while they stream (413 in the contract's
    // shape, src/uploads/multipart.ts), JSON bodies by readJSON (src/http/body.ts).
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    idleTimeout,
    // Bun's own development mode (it prints every response stream cut on purpose, such as a realtime
    // client that stopped reading) only with --dev; Bun would otherwise take it from NODE_ENV.
    development: cms.config.dev,
  });
  // Closers run last-in first; the job loop's goes first in the list so it stops last: the webhook
  // runtime aborts its in-flight sends before the loop waits for its own run to finish.
  if (options.jobLoop !== false) cms.closers.unshift(startJobLoop(cms, JOB_LOOP_INTERVAL_MS, firstAnswer).stop);
  const host = server.hostname?.includes(':') ? `[${server.hostname}]` : server.hostname;
  const url = `${options.tls ? 'https' : 'http'}://${host}:${server.port}`;
  return {
    url,
    port: server.port!,
    async stop() {
      // Open event streams would hold `stop` forever: they end first, telling clients to reconnect.
      await closeRealtime(cms);
      await server.stop(false);
      flushRequestLog(cms);
      await cms.close();
    },
  };
}
