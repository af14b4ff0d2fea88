/**
 * The manifest of a backup (the archive's last entry) and the check that an archive is whole: every entry
 * the manifest names is present with its size and sha256, and nothing else is in the archive. Restore runs
 * the check over the whole file before it touches anything.
 */
import { readTarGz } from './tar-read.ts';
import { SIGNATURE_ENTRY } from './archive-signature.ts';

export const MANIFEST_ENTRY = 'manifest.json';

export type ManifestEntry = { path: string; size: number; sha256: string };
export type Manifest = {
  format: 'cms-backup';
  formatVersion: 1;
  /** The cms version that wrote it. */
  version: string;
  createdAt: string;
  engine: 'sqlite' | 'postgres';
  /** The entry holding the database (SQLite file, or a pg_dump on PostgreSQL), or null when it is not in the archive. */
  database: string | null;
  note?: string;
  counts: { documents: Record<string, number>; uploads: number; uploadBytes: number };
  entries: ManifestEntry[];
};

/** Entry paths a restore knows where to put; anything else in a manifest means it is not ours. */
export const ENTRY_PATH =
  /^(database\/cms\.db|database\/postgres\.dump|data\/secret|uploads\/[A-Za-z0-9][A-Za-z0-9_-]{0,199}\.[a-z0-9]{1,10}|migrations\/(?:[A-Za-z0-9_.-]+\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*)$/;

export class BackupArchiveError extends Error {}

/** A whole archive: its manifest, the manifest's bytes as stored, and its signature (null when unsigned). */
export type CheckedArchive = { manifest: Manifest; manifestText: Uint8Array; signature: string | null };

/** Reads the whole archive once, hashing as it streams; throws BackupArchiveError naming what is wrong. */
export async function verifyArchive(file: string): Promise<Manifest> {
  return (await checkArchive(file)).manifest;
}

/** As verifyArchive, with what a signature check needs (src/backups/archive-signature.ts). */
export async function checkArchive(file: string): Promise<CheckedArchive> {
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifest: Manifest | null = null;
  let manifestText: Uint8Array = new Uint8Array();
  let signature: string | null = null;
  try {
    for await (const entry of readTarGz(file)) {
      if (entry.name === MANIFEST_ENTRY) {
        manifestText = await bytes(entry.body);
        manifest = JSON.parse(Buffer.from(manifestText).toString('utf8'));
        continue;
      }
      if (entry.name === SIGNATURE_ENTRY) {
        signature = Buffer.from(await bytes(entry.body)).toString('utf8');
        continue;
      }
      const hash = new Bun.CryptoHasher('sha256');
      let size = 0;
      for await (const chunk of entry.body) {
        hash.update(chunk);
        size += chunk.byteLength;
      }
      seen.set(entry.name, { size, sha256: hash.digest('hex') });
    }
  } catch (error) {
    throw new BackupArchiveError(`${file} is not a readable backup: ${(error as Error).message}`);
  }
  if (!manifest || manifest.format !== 'cms-backup' || !Array.isArray(manifest.entries))
    throw new BackupArchiveError(`${file} has no backup manifest`);
  if (manifest.formatVersion !== 1)
    throw new BackupArchiveError(`${file} is a backup format this version does not know (${manifest.formatVersion})`);
  for (const expected of manifest.entries) {
    if (!ENTRY_PATH.test(expected.path) || expected.path.split('/').includes('..'))
      throw new BackupArchiveError(`${file}: the manifest names an unexpected entry "${expected.path}"`);
    const found = seen.get(expected.path);
    if (!found) throw new BackupArchiveError(`${file}: ${expected.path} is missing`);
    if (found.size !== expected.size || found.sha256 !== expected.sha256)
      throw new BackupArchiveError(
        `${file}: ${expected.path} does not match its sha256 in the manifest (the archive is damaged)`,
      );
    seen.delete(expected.path);
  }
  if (seen.size) throw new BackupArchiveError(`${file}: ${[...seen.keys()][0]} is not in the manifest`);
  return { manifest, manifestText, signature };
}

async function bytes(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}
