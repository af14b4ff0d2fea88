/** A real webhook receiver on loopback for the tests: records every request, answers as told. */
export type ReceivedRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  json: any;
  at: number;
};
export type Respond = (request: ReceivedRequest, index: number) => Response | Promise<Response>;

export type Receiver = {
  url: string;
  requests: ReceivedRequest[];
  /** Changes how later requests are answered. */
  respondWith(respond: Respond): void;
  /** Resolves once `count` requests have arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  stop(): Promise<void>;
};

export const answer =
  (status: number, body = '') =>
  () =>
    new Response(body, { status });
/** Never answers (until the receiver stops). */
export const hang: Respond = () => new Promise<Response>(() => {});

export function startReceiver(respond: Respond = answer(200, 'ok')): Receiver {
  let current = respond;
  const requests: ReceivedRequest[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(request) {
      const body = await request.text();
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {}
      const received = {
        method: request.method,
        path: new URL(request.url).pathname,
        headers: Object.fromEntries(request.headers),
        body,
        json,
        at: Date.now(),
      };
      requests.push(received);
      return current(received, requests.length - 1);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    requests,
    respondWith(next) {
      current = next;
    },
    async waitFor(count, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > until) throw new Error(`receiver: expected ${count} requests, got ${requests.length}`);
        await Bun.sleep(5);
      }
      return requests.slice(0, count);
    },
    async stop() {
      await server.stop(true);
    },
  };
}
