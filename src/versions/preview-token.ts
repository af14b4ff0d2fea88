/**
 * Preview tokens (docs/drafts-and-versions.md): name a collection document (or a global, or a release) and expire an
 * hour after issue by cms.clock; signed with HMAC-SHA256 keyed with the instance secret. `<payload>.<mac>`, base64url.
 * A release's token also names who asked for it (and the API key's scopes), since its reads act as that caller
 * (docs/releases.md).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { forbidden } from '../errors.ts';
import type { CMS } from '../cms.ts';

export const PREVIEW_TOKEN_LIFETIME_MS = 3600_000;

export type PreviewSubject = { kind: 'collection' | 'global' | 'release'; slug: string; id: number | null };
/** Who a release's preview reads act as: the user's id (null: nobody signed in) and the key's scopes. */
export type PreviewIssuer = { user: number | null; scopes: string[] | null };
type Payload = { k: string; s: string; id: number | null; exp: number; u?: number | null; sc?: string[] | null };

// The secret also signs CSRF tokens; the prefix keeps the two kinds of signature apart.
const mac = (cms: CMS, payload: string) => createHmac('sha256', cms.secret).update(`cms-preview.${payload}`).digest();

export function signPreviewToken(cms: CMS, subject: PreviewSubject): string {
  return issuePreviewToken(cms, subject).token;
}

/** A token and when it expires (epoch ms); `issuer` for a release's token. */
export function issuePreviewToken(
  cms: CMS,
  subject: PreviewSubject,
  issuer?: PreviewIssuer,
): { token: string; expiresAt: number } {
  const payload: Payload = {
    k: subject.kind,
    s: subject.slug,
    id: subject.id,
    exp: cms.clock.now() + PREVIEW_TOKEN_LIFETIME_MS,
    ...(issuer ? { u: issuer.user, sc: issuer.scopes } : {}),
  };
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return { token: `${encoded}.${mac(cms, encoded).toString('base64url')}`, expiresAt: payload.exp };
}

/** Throws 403 unless the token is intact, unexpired and names this document; answers who issued it. */
export function verifyPreviewToken(cms: CMS, token: string, subject: PreviewSubject): PreviewIssuer {
  const refuse = () => forbidden('The preview token is not valid for this document or has expired.');
  const [encoded, signature, extra] = token.split('.');
  if (!encoded || !signature || extra !== undefined) throw refuse();
  const expected = mac(cms, encoded);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Payload;
  } catch {
    throw refuse();
  }
  if (payload.k !== subject.kind || payload.s !== subject.slug || payload.id !== subject.id) throw refuse();
  if (typeof payload.exp !== 'number' || payload.exp <= cms.clock.now()) throw refuse();
  return {
    user: typeof payload.u === 'number' ? payload.u : null,
    scopes: Array.isArray(payload.sc) ? payload.sc : null,
  };
}
