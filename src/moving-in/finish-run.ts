/**
 * The end of a run: the report printed as JSON, written to --report FILE when asked, and redirects.json beside it
 * (or in the current folder). A dry run writes no redirects.json; its report goes where the real run's would.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ImportRun } from './import-run.ts';

export const REDIRECTS_FILE = 'redirects.json';

export async function finishRun(run: ImportRun, reportFile?: string): Promise<string> {
  const text = `${JSON.stringify(run.report, null, 2)}\n`;
  if (reportFile) {
    await fs.promises.mkdir(path.dirname(path.resolve(reportFile)), { recursive: true });
    await Bun.write(reportFile, text);
  }
  if (!run.dryRun && run.redirects.length) {
    const folder = reportFile ? path.dirname(path.resolve(reportFile)) : process.cwd();
    const seen = new Set<string>();
    const lines = run.redirects.filter((r) => r.from !== r.to && !seen.has(r.from) && seen.add(r.from));
    await Bun.write(path.join(folder, REDIRECTS_FILE), `${JSON.stringify(lines, null, 2)}\n`);
  }
  return text;
}
