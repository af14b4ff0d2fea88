/**
 * Preview tokens (docs/drafts-and-versions.md): name a collection document (or a global) and expire an hour after issue
 * by cms.clock; signed with HMAC-SHA256 keyed with the instance secret. `<payload>.<mac>`, base64url.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { forbidden } from '../errors.ts';
import type { CMS } from '../cms.ts';

export const PREVIEW_TOKEN_LIFETIME_MS = 3600_000;

export type PreviewSubject = { kind: 'collection' | 'global'; slug: string; id: number | null };
type Payload = { k: string; s: string; id: number | null; exp: number };

// The secret also signs CSRF tokens; the prefix keeps the two kinds of signature apart.
const mac = (cms: CMS, payload: string) => createHmac('sha256', cms.secret).update(`cms-preview.${payload}`).digest();

export function signPreviewToken(cms: CMS, subject: PreviewSubject): string {
  const payload: Payload = {
    k: subject.kind,
    s: subject.slug,
    id: subject.id,
    exp: cms.clock.now() + PREVIEW_TOKEN_LIFETIME_MS,
  };
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${encoded}.${mac(cms, encoded).toString('base64url')}`;
}

/** Throws 403 unless the token is intact, unexpired and names this document. */
export function verifyPreviewToken(cms: CMS, token: string, subject: PreviewSubject): void {
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
}
