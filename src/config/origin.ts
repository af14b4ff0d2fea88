/** One spelling of an origin (`https://site.example`), for comparing the config's origins with a request's. */
export function normalizeOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin.replace(/\/+$/, '');
  }
}
