/**
 * One Server-Sent Events response: opened at once with a `retry:` line (so the client knows the stream is
 * open before any event), then events, a comment line every `heartbeatInterval`, and a closing `retry:`
 * hint on shutdown. What the client does not read queues here up to `maxBufferBytes`; past that the
 * stream is closed (the client reconnects with `Last-Event-ID` and misses nothing from the last minutes).
 */
const encoder = new TextEncoder();

/** How long a client waits before reconnecting (the `retry:` field), in ms. */
export const RETRY_MS = 2_000;

export type EventStreamOptions = { maxBufferBytes: number; heartbeatInterval: number; onClose(): void };

export type SSEStream = {
  response: Response;
  /** False once the stream is closed (by the client, by shutdown, or for reading too slowly). */
  send(event: { id: number; type: string; data: unknown }): boolean;
  /** Ends the stream; `hint` adds a `retry:` line first (graceful shutdown: reconnect elsewhere soon). */
  close(hint?: boolean): void;
  readonly open: boolean;
};

export function openEventStream(options: EventStreamOptions, headers: Record<string, string> = {}): SSEStream {
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let open = true;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  const finish = () => {
    if (!open) return;
    open = false;
    if (heartbeat) clearInterval(heartbeat);
    options.onClose();
  };
  const write = (text: string): boolean => {
    if (!open || !controller) return false;
    if ((controller.desiredSize ?? 0) <= 0) {
      // The client stopped reading: drop it rather than hold its backlog.
      close(false);
      return false;
    }
    try {
      controller.enqueue(encoder.encode(text));
      return true;
    } catch {
      finish();
      return false;
    }
  };
  const close = (hint = false) => {
    if (!open) return;
    if (hint) {
      try {
        controller?.enqueue(encoder.encode(`retry: ${RETRY_MS}\n: closing, reconnect\n\n`));
      } catch {
        // already gone
      }
    }
    try {
      controller?.close();
    } catch {
      // already closed by the client
    }
    finish();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        c.enqueue(encoder.encode(`retry: ${RETRY_MS}\n: open\n\n`));
        heartbeat = setInterval(() => write(': ping\n\n'), options.heartbeatInterval);
      },
      cancel: finish,
    },
    { highWaterMark: options.maxBufferBytes, size: (chunk) => chunk?.byteLength ?? 0 },
  );
  const response = new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      ...headers,
    },
  });
  return {
    response,
    send: ({ id, type, data }) => write(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`),
    close,
    get open() {
      return open;
    },
  };
}
