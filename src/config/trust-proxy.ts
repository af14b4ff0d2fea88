/**
 * The `trustProxy` setting (docs/operations.md), checked once at start: `false` (default), `true` (every
 * peer is a proxy), a hop count (that many proxies stand in front), or a list of proxy addresses and
 * CIDR ranges (a peer in the list is a proxy). src/http/client-ip.ts reads it per request.
 */
import type Net from 'node:net';
import type { AddressRange, TrustProxy } from './types.ts';

type Fail = (key: string, message: string) => never;

/**
 * `node:net`, loaded only by servers with `trustProxy` (while their setting is checked at start, so no
 * request waits for it): loading it, with the stream modules under it, is a measurable part of a start.
 */
let net: typeof Net | undefined;
export const nodeNet = (): typeof Net => (net ??= require('node:net') as typeof Net);

/** `10.0.0.0/8`, `fd00::/8`, `127.0.0.1`, `::1`; IPv4-mapped IPv6 addresses count as IPv4. */
export function parseAddressRange(text: string): AddressRange | null {
  const [address, prefixText, ...rest] = text.trim().split('/');
  if (rest.length) return null;
  const plain = unmapIPv4(address);
  const version = nodeNet().isIP(plain);
  if (version === 0) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const bits = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { address: plain, prefix: bits, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return null;
  return { address: plain, prefix: Number(prefixText), family };
}

/** `::ffff:10.0.0.1` (how a dual-stack socket reports an IPv4 peer) as `10.0.0.1`. */
export function unmapIPv4(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1] : address;
}

export function sanitizeTrustProxy(value: unknown, fail: Fail): TrustProxy {
  if (value === undefined || value === false || value === 0) return { kind: 'none' };
  if (value === true) {
    nodeNet();
    return { kind: 'all' };
  }
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) fail('trustProxy', 'a hop count must be a whole number of 0 or more');
    nodeNet();
    return { kind: 'hops', hops: value };
  }
  const list = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(list))
    fail('trustProxy', 'must be false, true, a hop count, or a list of proxy addresses or CIDR ranges');
  const ranges = (list as unknown[]).map((entry, i) => {
    const range = typeof entry === 'string' ? parseAddressRange(entry) : null;
    return (
      range ?? fail(`trustProxy[${i}]`, `"${String(entry)}" is not an IP address or CIDR range (such as 10.0.0.0/8)`)
    );
  });
  return ranges.length ? { kind: 'ranges', ranges } : { kind: 'none' };
}
