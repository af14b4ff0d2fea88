/**
 * The names of related documents the pickers have shown, kept for the session so a chosen document shows
 * its name at once; forgotten for a collection whose documents changed.
 */
export const labels = new Map<string, string>();
export const labelKey = (slug: string, locale: string | undefined, id: string) => `${slug}|${locale ?? ''}|${id}`;

/** Forget the names known for a collection's documents (after they changed). */
export function forgetChoices(slug: string): void {
  for (const key of labels.keys()) if (key.startsWith(`${slug}|`)) labels.delete(key);
}
