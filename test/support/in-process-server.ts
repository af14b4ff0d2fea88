/**
 * A test server without a socket: requests go straight to the same handler Bun.serve calls
 * (src/http/request-handler.ts), from a loopback peer, and stop closes the instance as the real server's
 * stop does. Scenario rows run this way unless their table asks for a socket; `fetch` gives a request what
 * Bun's own fetch would send (Host, Accept, User-Agent, Content-Length).
 */
import type { CMS } from '../../src/cms.ts';
import { DEFAULT_IDLE_TIMEOUT_SECONDS, type Connection } from '../../src/http/long-requests.ts';
import { flushRequestLog } from '../../src/http/observe-request.ts';
import { createRequestHandler, unexpectedErrorResponse } from '../../src/http/request-handler.ts';
import { closeRealtime } from '../../src/realtime/hub.ts';
import type { RunningServer } from '../../src/server.ts';

/** Port 9 (discard) has no listener here: a test that fetches the URL for real fails at once, saying so. */
const NO_LISTENER_PORT = 9;

const loopback: Connection = {
  requestIP: () => ({ address: '127.0.0.1', family: 'IPv4', port: 40000 }),
  timeout: () => {},
};

export type InProcessServer = RunningServer & { fetch(url: string, init: RequestInit): Promise<Response> };

export function serveInProcess(cms: CMS): InProcessServer {
  const handle = createRequestHandler(cms, { logFormat: 'text', idleTimeout: DEFAULT_IDLE_TIMEOUT_SECONDS });
  const url = `http://127.0.0.1:${NO_LISTENER_PORT}`;
  return {
    url,
    port: NO_LISTENER_PORT,
    async fetch(target, init) {
      const headers = new Headers(init.headers);
      let body = init.body ?? null;
      // What fetch does on the wire: a form becomes a multipart body with its boundary, and every body
      // has its length.
      if (body !== null && !(body instanceof ReadableStream)) {
        const blob = await new Response(body).blob();
        if (!headers.has('content-type') && blob.type) headers.set('content-type', blob.type);
        headers.set('content-length', String(blob.size));
        body = blob;
      }
      const host = new URL(target).host;
      if (!headers.has('host')) headers.set('host', host);
      if (!headers.has('accept')) headers.set('accept', '*/*');
      if (!headers.has('user-agent')) headers.set('user-agent', `Bun/${Bun.version}`);
      const request = new Request(target, { method: init.method, headers, body });
      try {
        return await handle(request, loopback);
      } catch {
        // As Bun.serve's error handler in src/server.ts does.
        return unexpectedErrorResponse();
      }
    },
    async stop() {
      await closeRealtime(cms);
      flushRequestLog(cms);
      await cms.close();
    },
  };
}
