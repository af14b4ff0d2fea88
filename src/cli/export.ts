/** `cms export [--out DIR] [--locale all|<code>] [--drafts]` and `cms import DIR` (docs/export.md). */
import path from 'node:path';
import { createCMS } from '../cms.ts';
import { ConfigError } from '../errors.ts';
import { exportContent } from '../content-files/export-content.ts';
import { importContent } from '../content-files/import-content.ts';
import type { CLIArgs } from './args.ts';
import { progressLine } from './progress-line.ts';
import { megabytes, total } from './common.ts';

export async function exportCommand(args: CLIArgs): Promise<void> {
  // Reads beside a running server, like a backup: the schema is left as it is, and a database that is
  // behind its config (never served, or a config changed since) is an error naming the command to run.
  const cms = await createCMS({ configPath: (args.flags.config as string) ?? null, migrate: 'verify' });
  try {
    const outDir = path.resolve((args.flags.out as string | undefined) ?? path.join(cms.config.rootDir, 'export'));
    const line = progressLine('export');
    const result = await exportContent(cms, {
      outDir,
      locale: args.flags.locale as string | undefined,
      drafts: Boolean(args.flags.drafts),
      onProgress: line.show,
    });
    line.done();
    console.log(
      `exported ${total(result.documents)} documents, ${result.globals} globals and ${result.mediaFiles} media files (${megabytes(result.mediaBytes)}) to ${outDir}`,
    );
  } finally {
    await cms.close();
  }
}

export async function importCommand(args: CLIArgs): Promise<void> {
  const dir = args.rest[0];
  if (!dir) throw new ConfigError('usage: cms import DIR [--config FILE]');
  const cms = await createCMS({ configPath: (args.flags.config as string) ?? null });
  try {
    const line = progressLine('import');
    const result = await importContent(cms, dir, line.show);
    line.done();
    console.log(
      `imported ${total(result.documents)} documents, ${result.globals} globals and ${result.mediaFiles} media files from ${path.resolve(dir)}`,
    );
  } finally {
    await cms.close();
  }
}
