/**
 * Every request's way through the app, whatever carries it: the peer's address is noted, the idle timer
 * is lifted while the server works (http/long-requests.ts), what needs no route (a preflight, a site file, a
 * kept answer still current) is answered before the Elysia app is asked, the answer is compressed when it is JSON the
 * client may take compressed (http/compress-json.ts), a large answer finished late is handed to Bun so that
 * it leaves in one write (http/late-answer.ts), and it is logged and counted.
 * `server.ts` hands it what Bun.serve receives; a caller without a socket (the scenario tests run
 * in-process) hands it a connection of its own.
 */
import type { CMS } from '../cms.ts';
import { startupMark } from '../startup-timing.ts';
import { answerBeforeRouting, createApp } from './app.ts';
import { errorResponse } from './errors.ts';
import { closes, drainUnreadBody } from './drain-body.ts';
import { idleTimerBack, liftIdleTimer, type Connection } from './long-requests.ts';
import { compressJSON, takesCompressed } from './compress-json.ts';
import { inOneWrite } from './late-answer.ts';
import { atTurnEnd, currentTurn, stillIn } from './event-loop-turn.ts';
import { rememberPeerAddress, settlePeerAddress } from './client-ip.ts';
import { observeRequest, type LogFormat } from './observe-request.ts';

export type RequestHandler = (request: Request, connection: Connection) => Promise<Response>;

/** The answer when the handler itself throws: the error shape, and no details. */
export const unexpectedErrorResponse = () =>
  new Response(JSON.stringify({ errors: [{ message: 'Something went wrong.' }] }), { status: 500 });

export function createRequestHandler(
  cms: CMS,
  options: { logFormat: LogFormat; idleTimeout: number; onFirstAnswer?: () => void },
): RequestHandler {
  const app = createApp(cms);
  const early = answerBeforeRouting(cms);
  startupMark('app built');
  // Elysia composes its router on the first `fetch`: done in the first idle turn after start, a first request
  // that comes later does not wait for it (about a third of its time).
  setTimeout(() => void app.fetch, 0).unref();
  let firstAnswer = true;
  return async (request, connection) => {
    const started = performance.now();
    const turn = currentTurn();
    // Asked only if something needs it: a kept answer (a POSTed GraphQL query's too) never does. A request
    // that may write takes it at the latest when the turn that received it ends, while the connection is
    // surely open (and as its route starts, http/handle.ts): a login's client cannot hide it by closing.
    rememberPeerAddress(request, () => connection.requestIP(request)?.address);
    let answered = false;
    if (request.method !== 'GET' && request.method !== 'HEAD')
      atTurnEnd(() => {
        if (!answered) settlePeerAddress(request);
      });
    // One async step per request here: each further layer of promises cost a read a measurable share.
    const timer = liftIdleTimer(connection, request);
    let response: Response;
    try {
      // What is answered before routing never meets Elysia (its context, hooks and mapping cost a kept answer
      // about a microsecond); awaited only when it is a promise, a failure answered in the error shape.
      let answered: Response | undefined;
      try {
        const first = early(request);
        answered = first instanceof Promise ? await first : first;
      } catch (error) {
        answered = errorResponse(cms, error);
      }
      // `fetch` is the compiled handler `handle` wraps in one more promise.
      response = answered ?? (await app.fetch(request));
      if (takesCompressed(request)) response = await compressJSON(request, response);
      if (!stillIn(turn)) response = await inOneWrite(request, response);
    } finally {
      idleTimerBack(connection, request, timer, options.idleTimeout);
    }
    answered = true;
    observeRequest(cms, request, response.status, performance.now() - started, options.logFormat);
    // A body left unread would make the close a reset that can destroy this answer (drain-body.ts); only a
    // closing connection can lose it, so a kept-alive one is not even awaited.
    if (closes(request)) await drainUnreadBody(request);
    if (firstAnswer) {
      firstAnswer = false;
      startupMark('first answer');
      options.onFirstAnswer?.();
    }
    return response;
  };
}
