/**
 * How many realtime streams one instance holds, and for whom (docs/realtime.md, "Limits"): at most
 * `maxConnections` in all; of those, streams without a signed-in caller take at most
 * `maxAnonymousConnections`, so signed-in users (an admin among them) still get in when anonymous
 * clients have taken every place they may; and one client takes at most its own share: an address
 * `maxConnectionsPerAddress` anonymous streams, a signed-in user `maxConnectionsPerUser` over all its
 * sessions and keys. A stream past any bound is a 429 that names it, before anything is opened.
 */
import type { RealtimeSettings } from '../config/realtime-options.ts';
import { APIError } from '../errors.ts';

const ANONYMOUS = 'address:';

/** Whom a stream counts for: its signed-in user, or else the address it came from. */
export function ownerOf(user: { id: unknown } | null | undefined, ip: string | null | undefined): string {
  return user ? `user:${user.id}` : `${ANONYMOUS}${addressGroup(ip ?? 'unknown')}`;
}

/**
 * One client's address: an IPv4 address as it is, an IPv6 address by its /64 (one subscriber's network
 * holds a whole /64, so counting single addresses would bound nothing).
 */
export function addressGroup(ip: string): string {
  if (!ip.includes(':') || ip.includes('.')) return ip.replace(/^::ffff:/i, '');
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export type StreamCounts = {
  /** Throws the 429 when one more stream for `owner` would pass a bound. */
  admit(owner: string): void;
  add(owner: string): void;
  remove(owner: string): void;
};

export function streamCounts(settings: () => RealtimeSettings): StreamCounts {
  const byOwner = new Map<string, number>();
  let size = 0;
  let anonymous = 0;
  const refuse = (message: string) => new APIError(429, message, undefined, { headers: { 'retry-after': '5' } });
  return {
    admit(owner) {
      const limits = settings();
      if (size >= limits.maxConnections)
        throw refuse(`Too many realtime connections: this server holds at most ${limits.maxConnections}.`);
      const isAnonymous = owner.startsWith(ANONYMOUS);
      const own = byOwner.get(owner) ?? 0;
      if (isAnonymous && own >= limits.maxConnectionsPerAddress)
        throw refuse(`Too many realtime connections from this address: at most ${limits.maxConnectionsPerAddress}.`);
      if (!isAnonymous && own >= limits.maxConnectionsPerUser)
        throw refuse(`Too many realtime connections for this user: at most ${limits.maxConnectionsPerUser}.`);
      if (isAnonymous && anonymous >= limits.maxAnonymousConnections)
        throw refuse(
          `Too many realtime connections without sign-in: this server holds at most ${limits.maxAnonymousConnections}; signed-in users can still connect.`,
        );
    },
    add(owner) {
      size++;
      if (owner.startsWith(ANONYMOUS)) anonymous++;
      byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1);
    },
    remove(owner) {
      size--;
      if (owner.startsWith(ANONYMOUS)) anonymous--;
      const left = (byOwner.get(owner) ?? 1) - 1;
      if (left > 0) byOwner.set(owner, left);
      else byOwner.delete(owner);
    },
  };
}
