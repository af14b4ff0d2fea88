/** Loads a user row as the plain `user` object access rules see (no password hash). */
import { rowToDoc } from '../fields/row.ts';
import { selectRowById } from '../db/documents.ts';
import type { User } from '../config/types.ts';
import type { CMS } from '../cms.ts';

export async function loadUser(cms: CMS, id: number): Promise<User | null> {
  const users = cms.config.collectionsBySlug.get('users')!;
  const row = await selectRowById(cms.store, users, id);
  if (!row) return null;
  const user = rowToDoc(users, row) as User;
  if (user.active === false) return null;
  return user;
}

/** The stored row of the user with this (lower-case) email, password hash included, or null. */
export function findUserRowByEmail(cms: CMS, email: string) {
  return cms.store.get('SELECT * FROM "users" WHERE "email" = ?', [email]);
}
