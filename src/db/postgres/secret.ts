/**
 * The instance secret on PostgreSQL (CONTRACT §9): `secret`, else CMS_SECRET, else one generated secret
 * kept in `_cms_settings`, so every instance signs and verifies sessions, CSRF and preview tokens alike.
 * Race-safe without a lock: each instance offers its own random value, the first insert wins
 * (ON CONFLICT DO NOTHING), and everyone reads back the winner.
 */
import { randomBytes } from 'node:crypto';
import type { SQL } from 'bun';

export const SECRET_SETTING = 'secret';

export async function resolvePostgresSecret(sql: SQL, configured: string | null): Promise<string> {
  if (configured) return configured;
  if (process.env.CMS_SECRET) return process.env.CMS_SECRET;
  await sql.unsafe('INSERT INTO "_cms_settings" ("key", "value") VALUES ($1, $2) ON CONFLICT ("key") DO NOTHING', [SECRET_SETTING, randomBytes(32).toString('hex')]);
  const [row] = await sql.unsafe('SELECT "value" FROM "_cms_settings" WHERE "key" = $1', [SECRET_SETTING]);
  return row.value as string;
}
