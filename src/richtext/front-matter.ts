/**
 * Front matter: the block of data at the top of a Markdown file, between `---` lines in YAML (Jekyll, Hugo,
 * Astro, Eleventy …) or between `+++` lines in TOML (Hugo). Parsed by Bun's own YAML and TOML readers, so
 * no package is needed. Values come as YAML types them (dates stay strings: the importer decides).
 */

const FENCES: Record<string, { close: string[]; parse: (text: string) => unknown; language: string }> = {
  '---': { close: ['---', '...'], parse: (text) => Bun.YAML.parse(text), language: 'YAML' },
  '+++': { close: ['+++'], parse: (text) => Bun.TOML.parse(text), language: 'TOML' },
};

/**
 * The front matter's data and the text after it. Text without front matter (or whose opening line is never
 * closed) is all body, with empty data. Front matter that does not parse, or is not a mapping of keys to
 * values, throws an Error saying so.
 */
export function splitFrontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const firstEnd = lineEnd(source, 0);
  const fence = FENCES[source.slice(0, firstEnd).trimEnd()];
  if (!fence) return { data: {}, body: text };
  let start = nextLine(source, firstEnd);
  while (start < source.length) {
    const end = lineEnd(source, start);
    if (fence.close.includes(source.slice(start, end).trimEnd())) {
      const raw = source.slice(nextLine(source, firstEnd), start);
      return { data: parseData(raw, fence.parse, fence.language), body: source.slice(nextLine(source, end)) };
    }
    start = nextLine(source, end);
  }
  return { data: {}, body: text };
}

function parseData(raw: string, parse: (text: string) => unknown, language: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = raw.trim() ? parse(raw) : {};
  } catch (error) {
    throw new Error(`The front matter is not valid ${language}: ${(error as Error).message}`);
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data))
    throw new Error('The front matter must be a mapping of keys to values.');
  return data as Record<string, unknown>;
}

const lineEnd = (text: string, from: number) => {
  const at = text.indexOf('\n', from);
  const end = at < 0 ? text.length : at;
  return end > from && text[end - 1] === '\r' ? end - 1 : end;
};
const nextLine = (text: string, end: number) => {
  if (text[end] === '\r') end++;
  return text[end] === '\n' ? end + 1 : end;
};
