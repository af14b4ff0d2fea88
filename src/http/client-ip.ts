/**
 * Who is on the other end (docs/operations.md). The server records each request's peer address as it
 * arrives; with `trustProxy`, requests that a trusted proxy passed on take the client's address from
 * X-Forwarded-For and the API's own origin from X-Forwarded-Proto/X-Forwarded-Host. Headers from any
 * other peer are ignored, since anybody can send them.
 */
import type Net from 'node:net';
import type { SanitizedConfig } from '../config/types.ts';
import { normalizeOrigin } from '../config/origin.ts';
import { nodeNet, unmapIPv4 } from '../config/trust-proxy.ts';
import type { SessionClient } from '../auth/sessions.ts';

/** The peer's address, or how to ask for it: asked once, when something needs it (most requests never do). */
const peers = new WeakMap<Request, string | null | (() => string | undefined | null)>();

export function rememberPeerAddress(
  request: Request,
  address: string | undefined | null | (() => string | undefined | null),
): void {
  peers.set(request, typeof address === 'function' ? address : address ? unmapIPv4(address) : null);
}

/**
 * Takes the peer's address now if it was left to be asked. A request that writes settles it before its route's
 * first wait (src/http/handle.ts): the connection is then surely open, so a client that closes as soon as
 * its login is sent cannot leave the login lock and the audit log without its address.
 */
export const settlePeerAddress = (request: Request) => void peerOf(request);

function peerOf(request: Request): string | null {
  const known = peers.get(request);
  if (typeof known !== 'function') return known ?? null;
  const address = known();
  const peer = address ? unmapIPv4(address) : null;
  peers.set(request, peer);
  return peer;
}

const proxyLists = new WeakMap<SanitizedConfig, Net.BlockList>();

function isProxyAddress(config: SanitizedConfig, address: string): boolean {
  const trust = config.trustProxy;
  if (trust.kind !== 'ranges') return false;
  let list = proxyLists.get(config);
  if (!list) {
    list = new (nodeNet().BlockList)();
    for (const range of trust.ranges) list.addSubnet(range.address, range.prefix, range.family);
    proxyLists.set(config, list);
  }
  return list.check(address, nodeNet().isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** Whether the peer of this request is a proxy we trust. */
function fromTrustedProxy(config: SanitizedConfig, peer: string | null): boolean {
  const trust = config.trustProxy;
  if (trust.kind === 'all') return true;
  if (trust.kind === 'hops') return trust.hops > 0;
  return peer !== null && isProxyAddress(config, peer);
}

/** The peer, then X-Forwarded-For from right to left (nearest hop first), up to the first entry that is no address. */
function hops(request: Request, peer: string): string[] {
  const chain = [peer];
  const forwarded = request.headers.get('x-forwarded-for')?.split(',').reverse() ?? [];
  for (const entry of forwarded) {
    const address = unmapIPv4(entry.trim());
    if (!nodeNet().isIP(address)) break;
    chain.push(address);
  }
  return chain;
}

/** The client's address: the peer's, or behind trusted proxies the nearest address no trusted proxy holds. */
export function clientIP(config: SanitizedConfig, request: Request): string | null {
  const peer = peerOf(request);
  if (peer === null || !fromTrustedProxy(config, peer)) return peer;
  const chain = hops(request, peer);
  const trust = config.trustProxy;
  if (trust.kind === 'all') return chain[chain.length - 1];
  if (trust.kind === 'hops') return chain[Math.min(trust.hops, chain.length - 1)];
  let i = 0;
  while (i < chain.length - 1 && isProxyAddress(config, chain[i])) i++;
  return chain[i];
}

/** The origin the request was sent to: serverURL when set, else as a trusted proxy reports it, else the request's own. */
export function ownOrigin(config: SanitizedConfig, request: Request): string {
  if (config.serverURL) return normalizeOrigin(config.serverURL);
  const url = new URL(request.url);
  if (!fromTrustedProxy(config, peerOf(request))) return url.origin;
  // The first value is the one the outermost proxy saw from the browser.
  const first = (name: string) => request.headers.get(name)?.split(',')[0].trim().toLowerCase() || null;
  const proto = first('x-forwarded-proto');
  const forwardedHost = first('x-forwarded-host');
  // Only a bare host[:port]: anything else could smuggle a path or user info into the origin.
  const host =
    forwardedHost && /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(forwardedHost)
      ? forwardedHost
      : url.host;
  const scheme = proto === 'https' || proto === 'http' ? proto : url.protocol.slice(0, -1);
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return url.origin;
  }
}

/** What the sessions list shows about where a session was made: user agent and client address. */
export function sessionClient(config: SanitizedConfig, request: Request): SessionClient {
  return { userAgent: request.headers.get('user-agent'), ip: clientIP(config, request) };
}
