/** The `replica` setting (docs/replication.md), checked once at start. */
import path from 'node:path';
import type { SanitizedReplica, UserConfig } from './types.ts';

type Fail = (key: string, message: string) => never;

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function sanitizeReplica(
  input: UserConfig['replica'],
  resolve: (p: string) => string,
  fail: Fail,
  env: Record<string, string | undefined> = process.env,
): SanitizedReplica | null {
  if (input === undefined || input === null) return null;
  if (typeof input !== 'object' || Array.isArray(input)) fail('replica', 'must be an object { url, mode, … }');
  const { url } = input;
  if (typeof url !== 'string' || !url) fail('replica.url', 'must be s3://bucket/prefix, file:///path or a folder');
  let folder: string | null = null;
  let bucket: string | null = null;
  let prefix: string | null = null;
  if (url.startsWith('s3://')) {
    const [name = '', ...rest] = url.slice('s3://'.length).split('/');
    if (!name) fail('replica.url', 'names no bucket (s3://bucket/prefix)');
    bucket = name;
    prefix = rest.join('/').replace(/^\/+|\/+$/g, '');
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith('file://')) {
    fail('replica.url', 'must be s3://bucket/prefix, file:///path or a folder');
  } else {
    folder = url.startsWith('file://') ? path.resolve(Bun.fileURLToPath(url)) : resolve(url);
  }
  const mode = input.mode ?? 'async';
  if (mode !== 'async' && mode !== 'sync') fail('replica.mode', "must be 'async' or 'sync'");
  const retentionDays = input.retentionDays ?? 30;
  if (typeof retentionDays !== 'number' || !(retentionDays > 0))
    fail('replica.retentionDays', 'must be a number of days');
  const snapshotIntervalMs = duration(input.snapshotInterval ?? '24h', 'replica.snapshotInterval', fail);
  const syncTimeout = input.syncTimeout ?? 5;
  if (typeof syncTimeout !== 'number' || !(syncTimeout > 0)) fail('replica.syncTimeout', 'must be a number of seconds');
  const encryptionKey = input.encryptionKey ?? (env.CMS_REPLICA_KEY || null);
  if (encryptionKey !== null && (typeof encryptionKey !== 'string' || encryptionKey.length < 16))
    fail('replica.encryptionKey', 'must be a string of at least 16 characters');
  return {
    url,
    folder,
    bucket,
    prefix,
    s3: input.s3 ?? {},
    mode,
    retentionDays,
    snapshotIntervalMs,
    syncTimeoutMs: syncTimeout * 1000,
    encryptionKey,
  };
}

function duration(value: unknown, key: string, fail: Fail): number {
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)\s*([smhd])$/.exec(value.trim()) : null;
  if (!match) fail(key, "must be a duration such as '24h', '30m' or '7d'");
  const ms = Number(match![1]) * UNITS[match![2]!]!;
  if (!(ms >= 1000)) fail(key, 'must be at least a second');
  return ms;
}
