/**
 * Bun.serve gathers an answer's status line, headers and body into one write when the answer is ready in
 * the turn of the event loop that received the request (src/http/event-loop-turn.ts).
 * An answer finished in a later turn, after waiting on a socket (PostgreSQL, S3) or a timer, is written
 * piece by piece once it passes about 16 kB: one system call for each header name, separator, value and
 * line end, then the body, twenty to thirty calls for an answer of this server where one would do
 * (docs/benchmarks.md, "Answers finished in a later turn"). The same bytes handed over as a stream of one
 * chunk leave in one write, sent with chunked transfer encoding instead of a Content-Length.
 */

/** Bun's buffer for gathering one answer is 16 kB; the headers take a few hundred bytes of it. */
const PIECEMEAL_BYTES = 15 * 1024;

/**
 * An answer finished after the turn that received its request, as Bun sends it in one write. Unchanged when
 * it is a HEAD's, or not JSON this server made: a stored file (it names its length and is no JSON this
 * server made) keeps its own stream. Else its bytes, as a stream of one chunk when they are more than Bun's
 * buffer holds.
 */
export async function inOneWrite(request: Request, response: Response): Promise<Response> {
  if (request.method === 'HEAD' || response.bodyUsed) return response;
  const headers = response.headers;
  if (!(headers.get('content-type') ?? '').includes('json')) return response;
  // JSON this server made is a string (no length named yet) or compressed bytes (content-encoding).
  const named = headers.get('content-length');
  if (named !== null && (!headers.has('content-encoding') || Number(named) <= PIECEMEAL_BYTES)) return response;
  const bytes = await response.bytes();
  if (bytes.byteLength <= PIECEMEAL_BYTES) return new Response(bytes, { status: response.status, headers });
  headers.delete('content-length');
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return new Response(body, { status: response.status, headers });
}
