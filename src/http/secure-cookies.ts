/**
 * Whether session cookies carry `Secure` (docs/accounts.md, docs/operations.md): when `serverURL` is https, or when this
 * instance itself serves HTTPS (`cms serve --tls-cert … --tls-key …`) with no proxy in front to say so.
 */
import type { CMS } from '../cms.ts';

const overHttps = new WeakSet<CMS>();

export function markServedOverHttps(cms: CMS): void {
  overHttps.add(cms);
}

export function cookiesAreSecure(cms: CMS): boolean {
  return Boolean(cms.config.serverURL?.startsWith('https:')) || overHttps.has(cms);
}
