/**
 * The cron secret for `/jobs/run` (docs/accounts.md): `CMS_CRON_SECRET`, else config `jobs.secret` (env
 * beats config), read once when the config is sanitized; compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { CMS } from '../cms.ts';

export function cronSecret(cms: CMS): string | null {
  return cms.config.jobs.secret;
}

export function isCronSecret(cms: CMS, presented: string): boolean {
  const secret = cronSecret(cms);
  if (!secret) return false;
  // Hashing first gives equal lengths, so the comparison time says nothing about the secret's length.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(presented), digest(secret));
}
