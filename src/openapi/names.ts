/** Names in the document: component names from slugs (`blog-posts` → `BlogPosts`), operation ids from verb and path. */
export function schemaName(slug: string): string {
  return slug.split(/[^A-Za-z0-9]+/).filter(Boolean).map((part) => part[0]!.toUpperCase() + part.slice(1)).join('') || 'Document';
}

export function operationId(method: string, path: string): string {
  const words = path.split('/').filter(Boolean).map((part) => schemaName(part.replace(/[{}]/g, '')));
  return method.toLowerCase() + words.join('');
}
