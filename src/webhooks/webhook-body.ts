/**
 * The request body and its signature (docs/webhooks.md). Built once, inside the change's
 * transaction, and stored: every attempt sends these exact bytes.
 */
import { createHmac } from 'node:crypto';
import type { SanitizedConfig } from '../config/types.ts';
import type { ChangeEvent } from '../events/change-events.ts';
import { withoutHiddenFields } from '../fields/without-hidden.ts';

/** `{ event, collection, id, doc, timestamp }`, or `{ event, global, doc, timestamp }` for a global. */
export function webhookBody(config: SanitizedConfig, event: ChangeEvent): string {
  const entity =
    event.collection !== undefined
      ? config.collectionsBySlug.get(event.collection)
      : config.globalsBySlug.get(event.global!);
  const doc = entity ? withoutHiddenFields(entity.fields, event.doc) : event.doc;
  if (event.collection !== undefined) {
    return JSON.stringify({
      event: event.type,
      collection: event.collection,
      id: event.id ?? doc.id ?? null,
      doc,
      timestamp: event.timestamp,
    });
  }
  return JSON.stringify({ event: event.type, global: event.global, doc, timestamp: event.timestamp });
}

/** Lowercase hex HMAC-SHA256 of the raw body, as GitHub-style verifiers expect it. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
