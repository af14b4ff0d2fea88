/** `cms export [DIR | --out DIR] [--locale all|<code>] [--drafts]` and `cms import DIR` (docs/export.md). */
import path from 'node:path';
import { createCMS } from '../create-cms.ts';
import { ConfigError } from '../errors.ts';
import { exportContent } from '../content-files/export-content.ts';
import { importContent } from '../content-files/import-content.ts';
import type { CLIArgs } from './args.ts';
import { progressLine } from './progress-line.ts';
import { megabytes, total } from './common.ts';

/** The folder to write to: `cms export DIR` or `--out DIR`, the same folder either way; both at once is refused. */
function outFolderOf(args: CLIArgs): string | undefined {
  const [positional] = args.rest;
  const flag = args.flags.out as string | undefined;
  if (positional !== undefined && flag !== undefined)
    throw new ConfigError('cms export: name the folder once, as DIR or as --out DIR');
  return positional ?? flag;
}

export async function exportCommand(args: CLIArgs): Promise<void> {
  const outArg = outFolderOf(args);
  // Reads beside a running server, like a backup: the schema is left as it is, and a database that is
  // behind its config (never served, or a config changed since) is an error naming the command to run.
  const cms = await createCMS({ configPath: (args.flags.config as string) ?? null, migrate: 'verify' });
  try {
    const outDir = path.resolve(outArg ?? path.join(cms.config.rootDir, 'export'));
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
  const sourceFlags = Object.keys(args.flags).filter((f) => f !== 'config' && args.flags[f] !== undefined);
  if (sourceFlags.length)
    throw new ConfigError(
      `cms import DIR takes no ${sourceFlags.map((f) => `--${f}`).join(', ')} (those are for cms import wordpress|markdown|payload)`,
    );
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
