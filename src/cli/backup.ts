/** `cms backup [--out DIR]` and `cms restore FILE` (docs/operations.md "Backups"). */
import path from 'node:path';
import { createBackup } from '../backups/create-backup.ts';
import { restoreBackup } from '../backups/restore-backup.ts';
import { markRestore } from '../realtime/change-log.ts';
import { lastChangeIdOfFile, lastChangeIdOfServer } from './restore-change-ids.ts';
import { createCMS } from '../create-cms.ts';
import { systemClock } from '../clock.ts';
import { loadConfig } from '../config/load.ts';
import { ConfigError } from '../errors.ts';
import type { CLIArgs } from './args.ts';
import { progressLine } from './progress-line.ts';
import { reindexWithProgress } from './reindex.ts';
import { megabytes, total } from './common.ts';

export async function backupCommand(args: CLIArgs): Promise<void> {
  // A server may be running on the same database: the backup reads beside it and changes no schema.
  const cms = await createCMS({ configPath: (args.flags.config as string) ?? null, migrate: 'none' });
  try {
    const line = progressLine('backup', (p) => (p.phase === 'uploads' ? `uploads ${p.done}/${p.total}` : p.phase));
    const backup = await createBackup(cms, {
      outDir: args.flags.out as string | undefined,
      onProgress: line.show,
      withDatabase: Boolean(args.flags['with-database']),
    });
    line.done();
    const { counts, note } = backup.manifest;
    console.log(
      `wrote ${path.join(backup.where, backup.name)} (${megabytes(backup.size)}): ${total(counts.documents)} documents, ${counts.uploads} uploads (${megabytes(counts.uploadBytes)})`,
    );
    if (note) console.log(note);
  } finally {
    await cms.close();
  }
}

export async function restoreCommand(args: CLIArgs): Promise<void> {
  const file = args.rest[0];
  if (!file) throw new ConfigError('usage: cms restore FILE [--trust-archive] [--config FILE]');
  const config = await loadConfig({ configPath: (args.flags.config as string) ?? null });
  const line = progressLine('restore');
  // The realtime log's last id before the restore, so the restored one goes on past it.
  const onServer = config.databaseEngine === 'postgres' ? await lastChangeIdOfServer(config) : null;
  const result = await restoreBackup(config, path.resolve(file), {
    now: systemClock.now(),
    onProgress: line.show,
    trustArchive: Boolean(args.flags['trust-archive']),
  });
  line.done();
  console.log(
    `restored ${result.restored} entries from the backup of ${result.manifest.createdAt} (cms ${result.manifest.version})`,
  );
  if (result.movedAside.length)
    console.log(`the data before the restore was moved aside, not deleted:\n  ${result.movedAside.join('\n  ')}`);
  if (!result.manifest.database) return void console.log(result.manifest.note ?? 'this backup holds no database');
  // The full-text indexes are derived data: rebuilt from the restored documents, so searches find them.
  const aside = result.movedAside.find((f) => f.startsWith(`${path.resolve(config.databasePath)}.`));
  const before = config.databaseEngine === 'postgres' ? onServer : aside ? lastChangeIdOfFile(aside) : null;
  const cms = await createCMS({ configPath: (args.flags.config as string) ?? null, migrate: 'none' });
  try {
    await markRestore(cms.store, systemClock.now(), before);
    await reindexWithProgress(cms);
  } finally {
    await cms.close();
  }
}
