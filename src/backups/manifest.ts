/**
 * The manifest of a backup (the archive's last entry) and the check that an archive is whole: every entry
 * the manifest names is present once with its size and sha256, and nothing else is in the archive. Restore
 * runs the check over the whole file before it touches anything, so whatever would stop a restore halfway
 * and can be known from the archive (an entry twice, a database the manifest names but does not hold) is
 * refused there.
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
    const names = new Set<string>();
    for await (const entry of readTarGz(file)) {
      // Restore writes entries in order: a name seen twice would be written twice, its first copy unchecked.
      if (names.has(entry.name)) throw new Error(`${entry.name} appears twice`);
      names.add(entry.name);
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
  refuseUnrestorableManifest(file, manifest);
  for (const expected of manifest.entries) {
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

/** What would make a restore stop after moving the current data aside, told from the manifest alone. */
function refuseUnrestorableManifest(file: string, manifest: Manifest): void {
  const listed = new Set<string>();
  for (const expected of manifest.entries) {
    const entryPath = (expected as Partial<ManifestEntry>)?.path;
    if (typeof entryPath !== 'string' || !ENTRY_PATH.test(entryPath) || entryPath.split('/').includes('..'))
      throw new BackupArchiveError(`${file}: the manifest names an unexpected entry "${entryPath}"`);
    if (listed.has(entryPath)) throw new BackupArchiveError(`${file}: the manifest names ${entryPath} twice`);
    listed.add(entryPath);
  }
  // The database entry is the one the manifest names, or none: restore moves the current one aside for it.
  const databases = [...listed].filter((entryPath) => entryPath.startsWith('database/'));
  const named = manifest.database ?? null;
  if (named !== null && !listed.has(named))
    throw new BackupArchiveError(`${file}: the manifest names the database ${named} but does not list it`);
  if (databases.some((entryPath) => entryPath !== named))
    throw new BackupArchiveError(`${file}: the manifest lists a database entry it does not name as its database`);
}

async function bytes(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}
