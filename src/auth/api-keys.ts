/**
 * API keys (docs/accounts.md): `cms_<random>`, shown once on create, stored only as sha256, scoped,
 * optionally expiring; a key acts as its user narrowed to its scopes.
 */
import { randomBytes } from 'node:crypto';
import { rowToDoc } from '../fields/row.ts';
import { unauthorized } from '../errors.ts';
import type { User } from '../config/types.ts';
import type { CMS } from '../cms.ts';
import { hashToken } from './sessions.ts';
import { loadUser } from './load-user.ts';
import { keptApiKeyLookup, type ApiKeyLookup } from './kept-credentials.ts';

export const API_KEY_PREFIX = 'cms_';

/** Whether a bearer token is an API key rather than a session token: the one test every caller uses. */
export function isApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export async function resolveApiKey(
  cms: CMS,
  key: string,
): Promise<{ user: User; scopes: string[]; keyId: number; expiresAt: number | null }> {
  const keyHash = hashToken(key);
  const { user, scopes, keyId, expiresAt } = await keptApiKeyLookup(cms, keyHash, () => lookUpApiKey(cms, keyHash));
  return { user, scopes, keyId, expiresAt };
}

async function lookUpApiKey(cms: CMS, keyHash: string): Promise<ApiKeyLookup> {
  const keys = cms.config.collectionsBySlug.get('api-keys')!;
  const row = await cms.store.get('SELECT * FROM "api-keys" WHERE "keyHash" = ?', [keyHash]);
  if (!row) throw unauthorized('The API key is not valid.');
  const doc = rowToDoc(keys, row);
  const expiresAt = typeof doc.expiresAt === 'string' ? new Date(doc.expiresAt).getTime() : null;
  if (expiresAt !== null && expiresAt <= cms.clock.now()) throw unauthorized('The API key has expired.');
  const user = await loadUser(cms, doc.user as number);
  if (!user) throw unauthorized('The API key is not valid.');
  const scopes = Array.isArray(doc.scopes) ? doc.scopes.filter((s): s is string => typeof s === 'string') : [];
  return { user, scopes, expiresAt, keyId: doc.id as number };
}
