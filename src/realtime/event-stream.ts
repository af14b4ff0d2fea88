/**
 * One Server-Sent Events response: opened at once with a `retry:` line (so the client knows the stream is
 * open before any event), then events, the comment lines the hub's one heartbeat timer asks for (`ping`),
 * and a last block when it ends on purpose. A stream holds no timer of its own: ten thousand streams
 * would hold ten thousand.
 *
 * The body is Bun's direct stream: each write goes straight to the connection, and a write the socket
 * could not take whole answers a promise that settles once Bun's own buffer has drained into it. What
 * those writes hold is what has not reached the socket, the memory a client that stops reading makes the
 * server keep; it is counted here. A write that would take it past `maxBufferBytes`, or a write left
 * waiting longer than `writeTimeout`, cuts the connection itself: a plain end would leave the socket open
 * for as long as its unread bytes wait, slot released but memory and descriptor still held. The client
 * reconnects with `Last-Event-ID` and misses nothing from the replay window.
 */
const encoder = new TextEncoder();

/** How long a client waits before reconnecting (the `retry:` field), in ms. */
export const RETRY_MS = 2_000;

/** The first block of every stream, and the heartbeat's comment line: encoded once for all of them. */
const OPENED = encoder.encode(`retry: ${RETRY_MS}\n: open\n\n`);
const PING = encoder.encode(': ping\n\n');

/** One event's block, encoded once for every stream it goes to alike. */
export const encodeEvent = (id: number, type: string, data: unknown) =>
  encoder.encode(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`);

export type EventStreamOptions = {
  maxBufferBytes: number;
  /** Milliseconds a write may wait for the client to read before the connection is cut. */
  writeTimeout: number;
  /** The clock the write timeout is measured by. */
  now(): number;
  onClose(): void;
};

export type SSEStream = {
  response: Response;
  /** Sends an event made by `encodeEvent`; false once the stream is closed (by the client, by shutdown, or cut). */
  send(event: Uint8Array): boolean;
  /**
   * Ends the stream after `last` (a block of SSE lines: a `retry:` hint on shutdown, or the event saying
   * why it ended). A client that is not reading gets its connection cut instead.
   */
  close(last?: string): void;
  /** Cuts the connection when a write has waited longer than the write timeout (the hub asks now and then). */
  checkWriteTimeout(): void;
  /** Writes the heartbeat's comment line (the hub's timer asks every `heartbeatInterval`). */
  ping(): void;
  readonly open: boolean;
};

export function openEventStream(options: EventStreamOptions, headers: Record<string, string> = {}): SSEStream {
  let controller: ReadableStreamDirectController | null = null;
  let open = true;
  let unsent = 0;
  /** Since when (by `options.now`) writes have waited without one of them draining; null while none waits. */
  let waitingSince: number | null = null;
  /** What was sent before Bun asked for the body (it asks as soon as the response goes out). */
  const early: Uint8Array[] = [];

  const finish = () => {
    if (!open) return;
    open = false;
    early.length = 0;
    options.onClose();
  };
  /** Cuts the connection: nothing more is sent, and the socket closes now, whatever it still holds. */
  const cut = () => {
    if (!open) return;
    try {
      controller?.close(new Error('The realtime client stopped reading.'));
    } catch {
      // already gone
    }
    finish();
  };
  /** Writes `bytes`; false when it could not be (closed, or cut for holding too much). */
  const put = (bytes: Uint8Array): boolean => {
    if (!open) return false;
    if (!controller) return early.push(bytes) > 0;
    // One event always goes out to a client that has read everything (it may be larger than the bound);
    // beyond that, what waits for the client stays within it.
    if (unsent > 0 && unsent + bytes.byteLength > options.maxBufferBytes) {
      cut();
      return false;
    }
    try {
      const written = controller.write(bytes);
      controller.flush();
      if (written instanceof Promise) wait(written, bytes.byteLength);
      return true;
    } catch {
      finish();
      return false;
    }
  };
  const wait = (written: Promise<number>, size: number) => {
    unsent += size;
    waitingSince ??= options.now();
    const drained = () => {
      unsent -= size;
      // Bytes moved: the timeout counts from now for what still waits.
      waitingSince = unsent > 0 ? options.now() : null;
    };
    written.then(drained, drained);
  };

  const source: Bun.DirectUnderlyingSource<Uint8Array> = {
    type: 'direct',
    pull(c) {
      if (!open) return void c.end();
      controller = c;
      put(OPENED);
      for (const bytes of early.splice(0)) put(bytes);
      // The response lasts until the stream is closed or cut (never by this promise).
      return new Promise<void>(() => {});
    },
    cancel: finish,
  };
  // Bun's ReadableStream takes `type: 'direct'`; the standard typings know only the other sources.
  const body = new ReadableStream(source as unknown as ConstructorParameters<typeof ReadableStream<Uint8Array>>[0]);
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
    send: put,
    close(last) {
      if (!open) return;
      if (!controller) return finish();
      if (unsent > 0) return cut();
      if (last !== undefined) {
        try {
          // The last block must reach the socket whole, or the client is not reading: cut.
          if (controller.write(encoder.encode(last)) instanceof Promise) return cut();
        } catch {
          return finish();
        }
      }
      try {
        controller.end();
      } catch {
        // closed by the client meanwhile
      }
      finish();
    },
    ping() {
      // Before Bun asks for the body the stream has just opened: no need to keep it alive yet.
      if (controller) put(PING);
    },
    checkWriteTimeout() {
      if (open && waitingSince !== null && options.now() - waitingSince > options.writeTimeout) cut();
    },
    get open() {
      return open;
    },
  };
}
