/**
 * The ids a stream's events carry, and what a reconnecting client sends back as `Last-Event-ID`: the
 * change log id of the last event it got, or that id marked `.ended` when the stream ended because its
 * credentials no longer held (logout, a removed session or key, a deactivated user). The browser's
 * EventSource reconnects by itself, without the cookie the logout cleared; the mark lets that reconnect
 * be refused with a 401, which stops it, instead of going on as an anonymous stream.
 */
import { badRequest } from '../errors.ts';

const ENDED = '.ended';

export type LastEventId = { id: number; ended: boolean };

/** The `id:` of the block that ends a stream whose credentials no longer hold. */
export const endedEventId = (cursor: number) => `${cursor}${ENDED}`;

export function parseLastEventId(raw: string | null): LastEventId | null {
  if (raw === null || raw.trim() === '') return null;
  const match = /^(\d{1,15})(\.ended)?$/.exec(raw.trim());
  if (!match) throw badRequest('Last-Event-ID must be the id of an event.', 'Last-Event-ID');
  return { id: Number(match[1]), ended: match[2] !== undefined };
}
