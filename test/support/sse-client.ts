/**
 * A small Server-Sent Events reader for tests: opens a stream, collects events, waits for them with a
 * bound; and a client that opens a stream and never reads it.
 */
import net from 'node:net';

export type SSEEvent = { id?: string; event?: string; data?: any; comment?: string; retry?: number };

export type SSEClient = {
  status: number;
  headers: Headers;
  events: SSEEvent[];
  /** The data events (with an id) so far. */
  readonly data: SSEEvent[];
  /** Resolves once `count` data events arrived (or fails after `ms`). */
  waitFor(count: number, ms?: number): Promise<SSEEvent[]>;
  /** Resolves once the stream ended. */
  ended: Promise<void>;
  close(): void;
  /** The error body of a refused stream. */
  body?: any;
};

export async function openSSE(url: string, headers: Record<string, string> = {}): Promise<SSEClient> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const events: SSEEvent[] = [];
  const waiters: (() => void)[] = [];
  const client: SSEClient = {
    status: res.status,
    headers: res.headers,
    events,
    get data() {
      return events.filter((e) => e.id !== undefined);
    },
    async waitFor(count, ms = 5000) {
      const deadline = Date.now() + ms;
      while (client.data.length < count) {
        if (Date.now() > deadline)
          throw new Error(`waited ${ms} ms for ${count} events, got ${client.data.length}: ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return client.data;
    },
    ended: Promise.resolve(),
    close: () => abort.abort(),
  };
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    client.body = await res.json().catch(() => null);
    return client;
  }
  client.ended = (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SSEEvent = {};
          for (const line of block.split('\n')) {
            const i = line.indexOf(':');
            const field = i === -1 ? line : line.slice(0, i);
            const value = i === -1 ? '' : line.slice(i + 1).replace(/^ /, '');
            if (field === '') event.comment = value;
            else if (field === 'id') event.id = value;
            else if (field === 'event') event.event = value;
            else if (field === 'retry') event.retry = Number(value);
            else if (field === 'data') event.data = JSON.parse(value);
          }
          events.push(event);
          for (const w of waiters.splice(0)) w();
        }
      }
    } catch {
      // aborted
    }
  })();
  return client;
}

export type StalledStream = { socket: net.Socket; ended(): boolean };

/**
 * A raw client that sends its request for `path` (e.g. `/api/cms/realtime?topics=posts`) and never reads
 * a byte: what the server sends fills the kernel's buffers, then the server's. `ended()` tells whether
 * the server dropped the connection (a reset is seen even by a client that does not read).
 */
export async function openStalledStream(serverURL: string, path: string, headers = ''): Promise<StalledStream> {
  const { hostname, port } = new URL(serverURL);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  socket.pause();
  let ended = false;
  for (const event of ['close', 'end', 'error']) socket.on(event, () => (ended = true));
  socket.write(`GET ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept: text/event-stream\r\n${headers}\r\n`);
  return { socket, ended: () => ended };
}
