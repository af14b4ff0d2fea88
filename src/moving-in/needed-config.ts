/**
 * What an import needs of the config, checked before anything is written: a missing collection, global or field
 * stops the run with a message naming each, so the config can be fixed (or emitted with --emit-config) first.
 */
import type { CMS } from '../cms.ts';
import { ConfigError } from '../errors.ts';

export type Needed = { collections: Record<string, string[]>; globals: Record<string, string[]> };

export function checkNeededConfig(cms: CMS, needed: Needed): void {
  const missing: string[] = [];
  const check = (kind: 'collection' | 'global', slug: string, fields: string[], have?: { name?: string }[]) => {
    if (!have) return void missing.push(`${kind} "${slug}"`);
    const names = new Set(have.map((f) => f.name));
    for (const field of fields) if (!names.has(field)) missing.push(`field "${field}" of ${kind} "${slug}"`);
  };
  for (const [slug, fields] of Object.entries(needed.collections))
    check('collection', slug, fields, cms.config.collections.find((c) => c.slug === slug)?.fields);
  for (const [slug, fields] of Object.entries(needed.globals))
    check('global', slug, fields, cms.config.globals.find((g) => g.slug === slug)?.fields);
  if (missing.length)
    throw new ConfigError(
      `import refused, nothing was written: the config lacks ${missing.join(', ')} (write one with --emit-config FILE)`,
    );
}
