/** `blog-posts` → `BlogPosts`: the words of a slug, each capitalised; empty when it has none. Also the generated types' names. */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

/** Names in the document: component names from slugs, operation ids from verb and path. */
export function schemaName(slug: string): string {
  return pascalCase(slug) || 'Document';
}

export function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((part) => schemaName(part.replace(/[{}]/g, '')));
  return method.toLowerCase() + words.join('');
}
