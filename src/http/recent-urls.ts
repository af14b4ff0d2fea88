/**
 * What a request handler works out from a URL alone (a kept answer's key, the log's path), remembered for
 * the URLs seen recently: sites ask the same few URLs again and again, and parsing their queries was a
 * fifth of a kept answer's time (a GraphQL query sent with GET, often a kilobyte or more of query string,
 * took longer to parse than the rest of its kept answer). Bounded in entries and in the characters of
 * the URLs and results held (all are dropped when either is full), and in one URL's length.
 */
const MAX_ENTRIES = 1024;
const MAX_URL_LENGTH = 8192;
const MAX_CHARS = 1 << 20;

export function rememberedPerURL(work: (url: string) => string): (url: string) => string {
  const known = new Map<string, string>();
  let chars = 0;
  return (url) => {
    let result = known.get(url);
    if (result === undefined) {
      result = work(url);
      if (url.length > MAX_URL_LENGTH) return result;
      const size = url.length + result.length;
      if (known.size >= MAX_ENTRIES || chars + size > MAX_CHARS) {
        known.clear();
        chars = 0;
      }
      known.set(url, result);
      chars += size;
    }
    return result;
  };
}
