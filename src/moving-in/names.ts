/** Slugs, field names and paths an import makes from source names. */

/** "Hello, World!" → "hello-world". */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** "main-menu" → "mainMenu": a valid field name from a source's name. */
export function fieldNameOf(text: string): string {
  const words = slugify(text).split('-').filter(Boolean);
  const name = words.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('');
  return /^[a-z_]/.test(name) ? name.slice(0, 63) : `f${name}`.slice(0, 63);
}

/** Hands out slugs unique within each collection: a second "news" becomes "news-2". */
export function uniqueSlugs() {
  const taken = new Map<string, Set<string>>();
  return (collection: string, wanted: string): string => {
    const used = taken.get(collection) ?? new Set<string>();
    taken.set(collection, used);
    let slug = wanted;
    for (let n = 2; used.has(slug); n++) slug = `${wanted}-${n}`;
    used.add(slug);
    return slug;
  };
}

/** The path of a URL (`https://x/2024/05/a/` → `/2024/05/a/`), or null for what is not a URL. */
export function pathOfURL(url: string, base?: string): string | null {
  try {
    const parsed = new URL(url, base);
    return decodeURIComponent(parsed.pathname) + parsed.search;
  } catch {
    return null;
  }
}
