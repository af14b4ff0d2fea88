/**
 * `cms reindex [--collection SLUG]`: rebuilds the full-text indexes from the documents (docs/search.md).
 * `cms restore` and `cms migrate:engine` rebuild them the same way once their data is in place.
 */
import { createCMS } from '../create-cms.ts';
import type { CMS } from '../cms.ts';
import type { SanitizedCollection } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import { reindexCollection, searchable } from '../search/search-index.ts';
import type { CLIArgs } from './args.ts';
import { progressLine } from './progress-line.ts';

export async function reindexCommand(args: CLIArgs): Promise<void> {
  const cms = await createCMS({ configPath: (args.flags.config as string) ?? null, migrate: 'none' });
  try {
    const only = args.flags.collection as string | undefined;
    const collections = searchable(cms).filter((c) => !only || c.slug === only);
    if (only && collections.length === 0) throw new ConfigError(`"${only}" is not a collection with a search option`);
    if (collections.length === 0) return void console.log('no collection has a search option: nothing to index');
    await reindexWithProgress(cms, collections);
  } finally {
    await cms.close();
  }
}

/** Rebuilds each collection's index with a progress line and a closing line per collection. */
export async function reindexWithProgress(
  cms: CMS,
  collections: SanitizedCollection[] = searchable(cms),
): Promise<void> {
  for (const collection of collections) {
    const line = progressLine('reindex', (p) => `${p.phase} ${p.done ?? 0}/${p.total ?? '?'}`);
    const count = await reindexCollection(cms, collection, (done, total) =>
      line.show({ phase: collection.slug, done, total }),
    );
    line.done();
    console.log(`reindexed ${collection.slug}: ${count} documents`);
  }
}
