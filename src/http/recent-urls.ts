/**
 * What a request handler works out from a URL alone (a kept answer's key, the log's path), remembered for
 * the URLs seen recently: sites ask the same few URLs again and again, and parsing their queries was a
 * fifth of a kept answer's time. Bounded in entries (all are dropped when full) and in the URL's length.
 */
const MAX_ENTRIES = 1024;
const MAX_URL_LENGTH = 512;

export function rememberedPerURL(work: (url: string) => string): (url: string) => string {
  const known = new Map<string, string>();
  return (url) => {
    let result = known.get(url);
    if (result === undefined) {
      result = work(url);
      if (known.size >= MAX_ENTRIES) known.clear();
      if (url.length <= MAX_URL_LENGTH) known.set(url, result);
    }
    return result;
  };
}
