/**
 * The instance secret (docs/config.md, docs/postgres.md): `secret`, else CMS_SECRET, else one generated on first start. On
 * SQLite it is kept in data/secret (0600) beside the database; on PostgreSQL no instance's disk is shared,
 * so it is kept in `_cms_settings`, where every instance reads the same one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { SanitizedConfig } from './config/types.ts';
import type { Store } from './db/store.ts';
import { offerSetting, readSetting } from './db/settings.ts';

export const SECRET_SETTING = 'secret';

const generate = () => randomBytes(32).toString('hex');

export async function resolveSecret(
  config: Pick<SanitizedConfig, 'secret' | 'dataDir' | 'databaseEngine'>,
  store: Store,
): Promise<string> {
  if (config.secret) return config.secret;
  if (process.env.CMS_SECRET) return process.env.CMS_SECRET;
  return config.databaseEngine === 'postgres' ? storedSecret(store) : fileSecret(config.dataDir);
}

/** Race-safe without a lock: every instance offers its own value, the first insert wins, all read the winner. */
async function storedSecret(store: Store): Promise<string> {
  await offerSetting(store, SECRET_SETTING, generate());
  return (await readSetting(store, SECRET_SETTING))!;
}

function fileSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = generate();
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, secret + '\n', { mode: 0o600 });
  try {
    fs.linkSync(temp, file); // first writer wins when two processes start together
  } catch {
    /* another process made it first */
  }
  fs.rmSync(temp, { force: true });
  return fs.readFileSync(file, 'utf8').trim();
}
