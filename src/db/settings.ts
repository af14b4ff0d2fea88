/**
 * `_cms_settings`: small named values every instance on one database shares (the last sweep and backup
 * times, the last mail failure, the generated secret on PostgreSQL). Keys are named by their owners.
 */
import type { Queryable } from './store.ts';

export async function readSetting(db: Queryable, key: string): Promise<string | null> {
  return (await db.get<{ value: string }>('SELECT "value" FROM "_cms_settings" WHERE "key" = ?', [key]))?.value ?? null;
}

/** Sets the value, replacing any there. */
export async function writeSetting(db: Queryable, key: string, value: string): Promise<void> {
  await db.run(
    'INSERT INTO "_cms_settings" ("key", "value") VALUES (?, ?) ON CONFLICT ("key") DO UPDATE SET "value" = excluded."value"',
    [key, value],
  );
}

/** Sets the value only when the key has none yet: of several instances offering one, the first wins. */
export async function offerSetting(db: Queryable, key: string, value: string): Promise<void> {
  await db.run('INSERT INTO "_cms_settings" ("key", "value") VALUES (?, ?) ON CONFLICT ("key") DO NOTHING', [
    key,
    value,
  ]);
}
