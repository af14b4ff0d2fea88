/**
 * Sample content at the first start: when a `cms.seed.ts` (or `.js`) sits beside the config and the
 * database holds no documents at all, `cms serve` imports it and runs its default export with the Local
 * API, so a project made by `cms init --template website` opens on a whole site. Run once: afterwards the
 * database is no longer empty. Accounts do not count as content: an admin made with `cms create-admin`
 * before the first start (and their API keys) still get the sample content, and sign its posts.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CMS } from '../cms.ts';
import { countRows } from '../db/documents.ts';
import { localAPI } from '../local.ts';

export const SEED_FILES = ['cms.seed.ts', 'cms.seed.js'];
const ACCOUNTS = new Set(['users', 'api-keys']);

/** Runs the seed file when there is one and nothing is stored yet; answers the file it ran, or null. */
export async function seedIfEmpty(cms: CMS): Promise<string | null> {
  if (!cms.config.configPath) return null;
  const file = SEED_FILES.map((name) => join(dirname(cms.config.configPath!), name)).find((path) => existsSync(path));
  if (!file) return null;
  for (const entity of [...cms.config.collections, ...cms.config.globals]) {
    if (entity.kind === 'collection' && ACCOUNTS.has(entity.builtIn ?? '')) continue;
    if ((await countRows(cms.store, entity, null)) > 0) return null;
  }
  const seed = (await import(file)).default;
  if (typeof seed !== 'function') throw new Error(`${file} must default-export a function (cms) => Promise<void>`);
  await seed(localAPI(cms));
  return file;
}
