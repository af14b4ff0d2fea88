/** `cms replica status | restore | verify` (docs/replication.md), and starting the replica beside `cms serve`. */
import path from 'node:path';
import type { CMS } from '../cms.ts';
import { systemClock } from '../clock.ts';
import { loadConfig } from '../config/load.ts';
import { ConfigError } from '../errors.ts';
import { replicaStatus } from '../replica/replica-status.ts';
import { restoreReplica, verifyReplica } from '../replica/restore-replica.ts';
import { startReplica } from '../replica/start-replica.ts';
import { namedFiles } from '../uploads/sweep-leftovers.ts';
import type { CLIArgs } from './args.ts';
import { reindexWithProgress } from './reindex.ts';
import { createCMS } from '../create-cms.ts';
import { markRestore } from '../realtime/change-log.ts';
import { lastChangeIdOfFile } from './restore-change-ids.ts';

/** Starts replicating the served database (when `replica` is set); stopped last when the instance closes. */
export async function startReplicaFor(cms: CMS): Promise<void> {
  const replica = await startReplica({
    config: cms.config,
    store: cms.store,
    storage: cms.storage,
    now: () => cms.clock.now(),
    log: cms.log,
    namedFiles: () => namedFiles(cms),
  });
  // First in the list, so it runs last of the closers: what they write on the way out is shipped too.
  if (replica) cms.closers.unshift(() => replica.close());
}

export async function replicaCommand(args: CLIArgs): Promise<void> {
  const configPath = (args.flags.config as string) ?? null;
  const config = await loadConfig({ configPath });
  if (!config.replica) throw new ConfigError('the config sets no replica (replica: { url }, docs/replication.md)');
  const action = args.rest[0];
  if (action === 'status') return void console.log(JSON.stringify(await replicaStatus(config), null, 2));
  if (action === 'verify') {
    const rebuilt = await verifyReplica(config);
    console.log(
      JSON.stringify({
        ok: true,
        transaction: rebuilt.txid,
        at: new Date(rebuilt.at).toISOString(),
        snapshot: rebuilt.snapshot,
        segments: rebuilt.segments,
      }),
    );
    return;
  }
  if (action !== 'restore') throw new ConfigError(`unknown replica action "${action}" (status, restore or verify)`);
  const result = await restoreReplica(config, restorePoint(args), {
    to: args.flags.to as string | undefined,
    now: systemClock.now(),
  });
  const what = result.file ? 'transaction' : 'the uploads of transaction';
  console.log(
    `restored ${what} ${result.txid} (${new Date(result.at).toISOString()}) from ${result.snapshot} and ${result.segments} segment(s) into ${result.into}`,
  );
  if (result.movedAside.length)
    console.log(`the data before the restore was moved aside, not deleted:\n  ${result.movedAside.join('\n  ')}`);
  if (args.flags.to || !result.file) return;
  const aside = result.movedAside[0];
  const before = aside ? lastChangeIdOfFile(path.join(aside, path.basename(config.databasePath))) : null;
  // The full-text indexes are derived data: rebuilt from the restored documents, so searches find them.
  const cms = await createCMS({ configPath, migrate: 'none' });
  try {
    await markRestore(cms.store, systemClock.now(), before);
    await reindexWithProgress(cms);
  } finally {
    await cms.close();
  }
}

function restorePoint(args: CLIArgs): { txid?: number; at?: number } {
  const { at, txid } = args.flags as { at?: string; txid?: string };
  if (at !== undefined && txid !== undefined) throw new ConfigError('--at and --txid go one at a time');
  if (txid !== undefined) {
    if (!/^\d+$/.test(txid)) throw new ConfigError(`--txid ${txid} is not a transaction number`);
    return { txid: Number(txid) };
  }
  if (at !== undefined) {
    const time = Date.parse(at);
    if (Number.isNaN(time)) throw new ConfigError(`--at ${at} is not a time (ISO 8601, e.g. 2026-11-29T04:00:00Z)`);
    return { at: time };
  }
  return {};
}
