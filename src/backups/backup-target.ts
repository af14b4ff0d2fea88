/**
 * Where finished backups are kept: a folder (`backups.dir`, or `cms backup --out DIR`) or S3
 * (`backups.storage`, through the same adapter as S3 uploads). An archive is always written first to a
 * hidden `.partial` file in the folder, then renamed into place or uploaded, so a listing never shows
 * half a backup.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SanitizedConfig, StoredFile } from '../config/types.ts';
import { createS3Storage } from '../uploads/storage/s3.ts';

/** `cms-backup-20260101T000000.000Z.tar.gz`: UTC, to the millisecond, sortable by name. */
export const BACKUP_NAME = /^cms-backup-\d{8}T\d{6}\.\d{3}Z\.tar\.gz$/;

export const backupName = (time: number) => `cms-backup-${new Date(time).toISOString().replace(/[-:]/g, '')}.tar.gz`;

export type BackupInfo = { name: string; size: number; createdAt: string };

export type BackupTarget = {
  /** Where new archives are written before `keep` takes them. */
  stagingDir: string;
  /** Newest first. */
  list(): Promise<BackupInfo[]>;
  /** Moves a finished archive from the staging folder to its place. */
  keep(stagedFile: string, name: string): Promise<void>;
  open(name: string): Promise<StoredFile | null>;
  remove(name: string): Promise<void>;
};

const createdAtOf = (name: string) => {
  const m = /(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})Z/.exec(name)!;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`;
};

const newestFirst = (a: BackupInfo, b: BackupInfo) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0);

export function backupTarget(config: SanitizedConfig, outDir?: string): BackupTarget {
  if (!outDir && config.backups.storage) return s3Target(config);
  return folderTarget(path.resolve(outDir ?? config.backups.dir));
}

function folderTarget(dir: string): BackupTarget {
  const fileOf = (name: string) => path.join(dir, name);
  return {
    stagingDir: dir,
    async list() {
      const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
      const infos: BackupInfo[] = [];
      for (const name of names.filter((n) => BACKUP_NAME.test(n))) {
        const stat = await fs.promises.stat(fileOf(name)).catch(() => null);
        if (stat?.isFile()) infos.push({ name, size: stat.size, createdAt: createdAtOf(name) });
      }
      return infos.sort(newestFirst);
    },
    async keep(stagedFile, name) {
      await fs.promises.rename(stagedFile, fileOf(name));
    },
    async open(name) {
      const stat = await fs.promises.stat(fileOf(name)).catch(() => null);
      return stat?.isFile() ? { body: Bun.file(fileOf(name)), size: stat.size } : null;
    },
    async remove(name) {
      await fs.promises.rm(fileOf(name), { force: true });
    },
  };
}

function s3Target(config: SanitizedConfig): BackupTarget {
  const s3 = createS3Storage(config.backups.storage!);
  return {
    stagingDir: config.backups.dir,
    async list() {
      const infos: BackupInfo[] = [];
      for await (const { key, size } of s3.list!()) {
        if (!BACKUP_NAME.test(key)) continue;
        // The list page carries each size; a server that leaves it out costs one stat for that key.
        const known = size ?? (await s3.get(key))?.size;
        if (known !== undefined) infos.push({ name: key, size: known, createdAt: createdAtOf(key) });
      }
      return infos.sort(newestFirst);
    },
    async keep(stagedFile, name) {
      try {
        const file = Bun.file(stagedFile);
        await s3.put(name, file, { contentType: 'application/gzip', size: file.size });
      } finally {
        await fs.promises.rm(stagedFile, { force: true });
      }
    },
    open: (name) => s3.get(name),
    remove: (name) => s3.delete(name),
  };
}
