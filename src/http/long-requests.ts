/**
 * Bun.serve closes a connection that stays silent for its idle timeout (10 s by default). That protects
 * the server from a client that stops sending, but it also cuts a request whose handler is still working
 * (a job run behind a lock, a bulk change, a backup, an upload being resized): the client then gets an
 * empty reply while the server finishes and logs 200, and a write can commit without its client knowing.
 *
 * So the timer runs only while the server waits for the client: a request without a body has it lifted
 * as soon as it arrives, one with a body once the body is read (`bodyReceived`, from the body readers).
 * When the answer is made the timeout comes back, for the connection's next request and for an answer
 * streamed slowly to a client that stopped reading; a live stream (`keepOpen`) keeps it off. Requests
 * made without Bun.serve (`app.handle` in tests) have no timer to lift.
 */
import type { Server } from 'bun';

/** What the handler asks of the connection a request came on: who is at the other end, and its idle timer. */
export type Connection = Pick<Server<unknown>, 'requestIP' | 'timeout'>;

/** Bun's own default; `cms serve` keeps it. */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 10;

const lifts = new WeakMap<Request, () => void>();
const streaming = new WeakSet<Request>();

/**
 * Whether a body follows, from the headers that announce one (HTTP/1.1 has no other way to send it):
 * asking `request.body` would make its stream for every request, a cost a cached GraphQL POST felt.
 */
const hasBody = ({ headers }: Request) => {
  const length = headers.get('content-length');
  return length !== null ? length !== '0' : headers.has('transfer-encoding');
};

/** Whether a request's idle timer is lifted yet. */
export type IdleTimer = { readonly lifted: boolean };

const LIFTED: IdleTimer = { lifted: true };

/**
 * Lifts the idle timer for a request Bun.serve received while the server works: at once without a body,
 * once the body is read with one. Hand what it answers to `idleTimerBack` when the answer is made.
 */
export function liftIdleTimer(server: Connection, request: Request): IdleTimer {
  if (!hasBody(request)) {
    server.timeout(request, 0);
    return LIFTED;
  }
  const timer = { lifted: false };
  lifts.set(request, () => {
    if (timer.lifted) return;
    timer.lifted = true;
    server.timeout(request, 0);
  });
  return timer;
}

/** The answer is made: the idle timeout comes back, unless the answer is a live stream (`keepOpen`). */
export function idleTimerBack(server: Connection, request: Request, timer: IdleTimer, idleSeconds: number): void {
  if (timer !== LIFTED) lifts.delete(request);
  if (timer.lifted && !streaming.has(request)) server.timeout(request, idleSeconds);
}

/**
 * The answer is a stream that lives on after the handler returns (realtime's event stream): the timer
 * stays off for its connection, which ends when the stream does.
 */
export function keepOpen(request: Request): void {
  bodyReceived(request);
  streaming.add(request);
}

/** The whole body is in (or the route will not read it): from now on only the server is working. */
export function bodyReceived(request: Request): void {
  lifts.get(request)?.();
}
