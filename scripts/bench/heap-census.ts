/**
 * Preloaded into a server started from source by `bun scripts/bench-soak.ts --heap`: every
 * `CMS_HEAP_CENSUS_EVERY` seconds (default 60) it collects garbage fully and appends one JSON line to the
 * file `CMS_HEAP_CENSUS` names: the time, the JS heap's size and its live objects counted by type. The
 * soak compares the census after its warm-up with the last one, to tell objects that pile up from a heap
 * that only grew to its working set.
 */
import fs from 'node:fs';
import { heapStats } from 'bun:jsc';

const file = process.env.CMS_HEAP_CENSUS;
if (file) {
  const every = Number(process.env.CMS_HEAP_CENSUS_EVERY ?? 60) * 1000;
  const started = performance.now();
  const census = () => {
    Bun.gc(true);
    const stats = heapStats();
    const line = {
      min: (performance.now() - started) / 60_000,
      heapSize: stats.heapSize,
      objectCount: stats.objectCount,
      types: stats.objectTypeCounts,
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  setInterval(census, every).unref();
}
