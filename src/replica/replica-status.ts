/**
 * What `cms replica status` prints (docs/replication.md "Status"), read from the replica and, when the
 * database is here, from the database's own record of its last transaction.
 */
import fs from 'node:fs';
import type { SanitizedConfig } from '../config/types.ts';
import { readCatalog } from './catalog.ts';
import { unpackSegment } from './objects.ts';
import { readPosition } from './snapshot.ts';
import { openTarget } from './target.ts';

export type ReplicaStatus = {
  mode: 'async' | 'sync';
  url: string;
  lagMs: number | null;
  lastTransaction: number;
  oldestRestorable: string | null;
  newestRestorable: string | null;
  snapshots: number;
  segments: number;
  bytes: number;
  puts: number;
  /** Only on PostgreSQL, whose database the server backs up: the replica holds the uploads. */
  uploadsOnly?: true;
};

export async function replicaStatus(config: SanitizedConfig): Promise<ReplicaStatus> {
  const settings = config.replica!;
  const target = openTarget(settings);
  const catalog = await readCatalog(target);
  const oldest = catalog.snapshots[0];
  let newestAt: number | null = null;
  const lastSegment = catalog.segments.at(-1);
  const lastSnapshot = catalog.snapshots.at(-1);
  if (lastSegment && lastSegment.to >= (lastSnapshot?.txid ?? 0)) {
    const bytes = await target.get(lastSegment.key);
    if (bytes) newestAt = unpackSegment(lastSegment.key, bytes, settings.encryptionKey).at(-1)!.at;
  } else if (lastSnapshot) newestAt = lastSnapshot.at;
  // How far the replica trails the database: the commit time of the newest transaction here against the
  // newest there (null when the database is not on this machine).
  const here =
    config.databaseEngine === 'sqlite' && fs.existsSync(config.databasePath) ? readPosition(config.databasePath) : null;
  const lagMs = here ? (here.txid > catalog.newestTxid ? Math.max(0, here.at - (newestAt ?? here.at)) : 0) : null;
  return {
    mode: settings.mode,
    url: settings.url,
    lagMs,
    lastTransaction: catalog.newestTxid,
    oldestRestorable: oldest ? new Date(oldest.at).toISOString() : null,
    newestRestorable: newestAt === null ? null : new Date(newestAt).toISOString(),
    snapshots: catalog.snapshots.length,
    segments: catalog.segments.length,
    bytes: catalog.bytes,
    puts: catalog.objects,
    ...(config.databaseEngine === 'sqlite' ? {} : { uploadsOnly: true as const }),
  };
}
