/** The one JSON report every `cms import <source>` run prints (docs/moving-in.md): counts, losses, what went wrong. */
export type Counts = { created: number; updated: number; unchanged: number; failed: number };
export type Outcome = keyof Counts;

export type ImportReport = {
  source: string;
  dryRun: boolean;
  collections: Record<string, Counts>;
  media: { imported: number; reused: number; missing: number };
  missingMedia: string[];
  lossy: { document: string; what: string; count: number }[];
  unmapped: { collection: string; field: string; count: number }[];
  errors: { sourceId: string; message: string }[];
};

export function emptyReport(source: string, dryRun: boolean): ImportReport {
  return {
    source,
    dryRun,
    collections: {},
    media: { imported: 0, reused: 0, missing: 0 },
    missingMedia: [],
    lossy: [],
    unmapped: [],
    errors: [],
  };
}

export function count(report: ImportReport, collection: string, outcome: Outcome): void {
  const counts = (report.collections[collection] ??= { created: 0, updated: 0, unchanged: 0, failed: 0 });
  counts[outcome]++;
}

/** A field of the source that has no place in the target, counted once per document that had it. */
export function countUnmapped(report: ImportReport, collection: string, field: string): void {
  const row = report.unmapped.find((u) => u.collection === collection && u.field === field);
  if (row) row.count++;
  else report.unmapped.push({ collection, field, count: 1 });
}

export function addLossy(report: ImportReport, document: string, lossy: { what: string; count: number }[]): void {
  for (const { what, count } of lossy) if (count > 0) report.lossy.push({ document, what, count });
}

export function addMissingMedia(report: ImportReport, url: string): void {
  if (report.missingMedia.includes(url)) return;
  report.missingMedia.push(url);
  report.media.missing++;
}
