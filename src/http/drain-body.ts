/**
 * A request answered without its body being read (a refusal before the body: 401, 403, a 413 by its
 * declared length, a 404) still has that body on its way. If the connection then closes while unread bytes
 * sit in the server's receive buffer, the kernel resets it instead of closing it, and the reset can
 * destroy the answer before the client has read it: the client sees "connection reset" instead of its 401
 * or 413. Bun.serve closes right after the answer when the client asked for `Connection: close` (on a
 * kept-alive connection it reads past the unread body itself, to the next request). For those, the rest
 * of the body is read and dropped before the answer goes, up to a bound in bytes and time (a body past the
 * bound cannot be waited for; its sender may see the reset). Each chunk is dropped as it arrives.
 * docs/request-bodies.md.
 */

/** The most of an unread body read (and dropped) so that its answer arrives: twice the JSON body limit. */
export const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;
/** The longest a refused request waits for the rest of its body; a silent sender is cut sooner by the idle timer. */
export const DRAIN_TIME_MS = 5_000;

/** The client asked for the connection to close after this answer. */
export const closes = (request: Request) => /\bclose\b/i.test(request.headers.get('connection') ?? '');

/** Reads what is left of a body no route read on a closing connection, within the bounds; false when some may be left. */
export async function drainUnreadBody(request: Request): Promise<boolean> {
  if (request.bodyUsed || !closes(request) || !request.body) return true;
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared === 0) return true;
  // A body that cannot be read whole within the bound is not started: reading part of it saves nothing.
  if (declared > DRAIN_LIMIT_BYTES) return false;
  const reader = request.body.getReader();
  const deadline = performance.now() + DRAIN_TIME_MS;
  let read = 0;
  try {
    while (read <= DRAIN_LIMIT_BYTES && performance.now() < deadline) {
      const { done, value } = await reader.read();
      if (done) return true;
      read += value.byteLength;
    }
  } catch {
    return false; // the sender went away
  }
  reader.cancel().catch(() => {});
  return false;
}
