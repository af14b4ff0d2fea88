/** `cms reindex [--collection SLUG]`: rebuilds the full-text indexes from the documents (docs/search.md). */
import { createCMS } from '../cms.ts';
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
    for (const collection of collections) {
      const line = progressLine('reindex', (p) => `${p.phase} ${p.done ?? 0}/${p.total ?? '?'}`);
      const count = await reindexCollection(cms, collection, (done, total) =>
        line.show({ phase: collection.slug, done, total }),
      );
      line.done();
      console.log(`reindexed ${collection.slug}: ${count} documents`);
    }
  } finally {
    await cms.close();
  }
}
