/**
 * Backups are signed: `manifest.sig` holds an HMAC-SHA256 of `manifest.json`'s bytes, keyed by a key
 * derived from the instance secret. The manifest names every entry with its sha256, so the signature
 * covers the whole archive: one whose files were changed and checksums recomputed (a planted admin in the
 * database) no longer matches. `cms restore` checks it with the secret of the instance it restores into
 * (config `secret`, CMS_SECRET, the data folder's `secret` file, or on PostgreSQL the database's setting),
 * never with the secret inside the archive, which whoever changed the archive could have changed too.
 * docs/operations.md "Backups" says which secret a restore on another machine needs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SanitizedConfig } from '../config/types.ts';

export const SIGNATURE_ENTRY = 'manifest.sig';

/** A key for this purpose only: the secret itself also signs sessions, previews and CSRF tokens. */
const signingKey = (secret: string) => createHmac('sha256', secret).update('cms backup manifest v1').digest();

export function signManifest(secret: string, manifestText: Uint8Array): string {
  return createHmac('sha256', signingKey(secret)).update(manifestText).digest('hex');
}

export function signatureMatches(secret: string, manifestText: Uint8Array, signature: string): boolean {
  const expected = Buffer.from(signManifest(secret, manifestText), 'hex');
  const given = Buffer.from(signature.trim(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The secret of the instance a restore writes into, without making one: null when it has none yet. */
export async function restoringSecret(
  config: Pick<SanitizedConfig, 'secret' | 'dataDir' | 'databaseEngine' | 'databasePath'>,
): Promise<string | null> {
  if (config.secret) return config.secret;
  if (process.env.CMS_SECRET) return process.env.CMS_SECRET;
  if (config.databaseEngine !== 'postgres') {
    const file = path.join(config.dataDir, 'secret');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : null;
  }
  const sql = new Bun.SQL(config.databasePath, { max: 1 });
  try {
    const [row] = await sql`SELECT "value" FROM "_cms_settings" WHERE "key" = 'secret'`;
    return (row?.value as string | undefined) ?? null;
  } catch {
    return null; // a database without the table: a fresh one
  } finally {
    await sql.close();
  }
}
