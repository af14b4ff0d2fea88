/**
 * Loading two servers in turns. The machine's speed drifts between runs (up to 2.5x on the shared VM, docs/benchmarks.md), so
 * the two take turns in short rounds, each round yields a ratio, and a comparison reports medians.
 */
import autocannon from 'autocannon';

/** One benchmarked request against one server. */
export type Target = {
  port: number;
  path: string;
  method?: 'GET' | 'POST' | 'PATCH';
  body?: string;
  headers?: Record<string, string>;
};
export type Figures = { rps: number; p99: number };
export type Comparison = { a: Figures; b: Figures; ratio: number; low: number; high: number; ratios: number[] };

export async function load(t: Target, seconds: number, connections: number): Promise<Figures> {
  const result = await autocannon({
    url: `http://127.0.0.1:${t.port}${t.path}`,
    method: t.method ?? 'GET',
    body: t.body,
    headers: t.headers,
    connections,
    duration: seconds,
  });
  if (result.non2xx)
    throw new Error(`${t.method ?? 'GET'} ${t.path}: ${result.non2xx} non-2xx answers on port ${t.port}`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/**
 * The cases `--cases` names (comma-separated), in their own order; an unknown name is an error, and an
 * empty list picks none.
 */
export function pickCases<C extends { key: string }>(all: C[], list: string): C[] {
  const wanted = list
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  for (const w of wanted)
    if (!all.some((c) => c.key === w))
      throw new Error(`--cases: unknown case ${w} (known: ${all.map((c) => c.key).join(', ')})`);
  return all.filter((c) => wanted.includes(c.key));
}

export const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** A 2 s warm-up each, then `duration` seconds each split into `rounds` turns; ratios are a / b. */
export async function compare(
  a: Target,
  b: Target,
  o: { duration: number; rounds: number; connections: number },
): Promise<Comparison> {
  await load(a, 2, o.connections);
  await load(b, 2, o.connections);
  const turn = Math.max(1, Math.round(o.duration / o.rounds));
  const as: Figures[] = [];
  const bs: Figures[] = [];
  for (let r = 0; r < o.rounds; r++) {
    // Alternate who goes first, so neither always meets the machine in the same state.
    if (r % 2 === 0) {
      as.push(await load(a, turn, o.connections));
      bs.push(await load(b, turn, o.connections));
    } else {
      bs.push(await load(b, turn, o.connections));
      as.push(await load(a, turn, o.connections));
    }
  }
  const ratios = as.map((x, i) => x.rps / bs[i].rps);
  const mid = (xs: Figures[]) => ({ rps: median(xs.map((x) => x.rps)), p99: median(xs.map((x) => x.p99)) });
  return { a: mid(as), b: mid(bs), ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios), ratios };
}
