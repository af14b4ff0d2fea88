/**
 * One HTTP attempt of a delivery: POST the stored body with the protocol headers, no redirects followed,
 * a time limit, and the receiver's answer read only up to a few bytes and thrown away.
 */
import { webhookTiming } from './retry-schedule.ts';
import { isRetryableStatus } from './retry-schedule.ts';
import { withoutTargetPath } from './target-origin.ts';

export type WebhookRequest = {
  url: string;
  deliveryId: string;
  event: string;
  body: string;
  signature: string | null;
  /** The target's configured `headers`; the protocol headers win over them. */
  headers?: Record<string, string>;
};

export type AttemptOutcome =
  | { ok: true; status: number }
  | { ok: false; retry: boolean; error: string; status?: number };

/** Enough to let a short answer finish (so the connection can be reused) without buffering a large one. */
const MAX_ANSWER_BYTES = 4096;

export function requestHeaders(request: WebhookRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = String(value);
  headers['content-type'] = 'application/json';
  headers['user-agent'] = 'cms-webhooks';
  headers['x-cms-event'] = request.event;
  headers['x-cms-delivery'] = request.deliveryId;
  if (request.signature) headers['x-cms-signature'] = request.signature;
  else delete headers['x-cms-signature'];
  return headers;
}

/** `cancel` aborts the attempt from outside (shutdown); the time limit is applied here. */
export async function sendWebhookRequest(request: WebhookRequest, cancel?: AbortSignal): Promise<AttemptOutcome> {
  const timeout = AbortSignal.timeout(webhookTiming.timeoutMs);
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: requestHeaders(request),
      body: request.body,
      redirect: 'manual',
      signal,
    });
    await discardAnswer(response);
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    const error = `HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : ''}`;
    return { ok: false, retry: isRetryableStatus(response.status), error, status: response.status };
  } catch (error) {
    if (cancel?.aborted) return { ok: false, retry: true, error: 'interrupted: the process was shutting down' };
    if (timeout.aborted) return { ok: false, retry: true, error: `timeout after ${webhookTiming.timeoutMs / 1000} s` };
    // Stored as the row's last error and logged: never with the target's path or query.
    const message = withoutTargetPath((error as Error)?.message ?? String(error), request.url);
    return { ok: false, retry: true, error: `network error: ${message}` };
  }
}

async function discardAnswer(response: Response): Promise<void> {
  const body = response.body;
  if (!body) return;
  const reader = body.getReader();
  let read = 0;
  try {
    while (read <= MAX_ANSWER_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The status is what counts; a broken answer body changes nothing.
  }
}
