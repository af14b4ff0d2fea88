/** Interface names for collections and globals: `posts` → `Post`, `api-keys` → `ApiKey`, `site-settings` → `SiteSettings`. */
import { labelText } from '../config/label-text.ts';
import type { Entity } from '../config/types.ts';
import { pascalCase } from '../openapi/names.ts';

// Names the generated file declares itself, and a collection named like them would shadow.
const TAKEN = new Set(['Locale', 'LocaleValues', 'CMSTypes']);

export function typeNames(entities: Entity[]): Map<string, string> {
  const used = new Set(TAKEN);
  const names = new Map<string, string>();
  for (const entity of entities) {
    const singular =
      entity.kind === 'collection' ? (labelText(entity.labels?.singular) ?? singularize(entity.slug)) : entity.slug;
    let name = pascalCase(singular) || 'Doc';
    if (/^\d/.test(name)) name = `T${name}`;
    // A global may share a collection's name (`settings` both ways): the later one gets a suffix.
    const base = name;
    for (
      let n = 2;
      used.has(name) || used.has(`${name}Data`) || used.has(`${name}AllLocales`) || used.has(`${name}Path`);
      n++
    )
      name = `${base}${n}`;
    for (const suffix of ['', 'Data', 'AllLocales', 'Path']) used.add(name + suffix);
    names.set(`${entity.kind}:${entity.slug}`, name);
  }
  return names;
}

function singularize(slug: string): string {
  if (/ies$/.test(slug)) return slug.slice(0, -3) + 'y';
  if (/(ss|us|is)$/.test(slug)) return slug;
  if (/(ches|shes|xes|sses)$/.test(slug)) return slug.slice(0, -2);
  return slug.replace(/s$/, '');
}
