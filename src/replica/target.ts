/**
 * Where the replica lives: a folder (`file:///path` or a path) or S3 (`s3://bucket/prefix`, through the same
 * adapter as S3 uploads). Objects are written whole or not at all (a folder: a temporary file, flushed,
 * then renamed), so a listing never shows half an object.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SanitizedReplica, StoredFile } from '../config/types.ts';
import { createS3Storage } from '../uploads/storage/s3.ts';

export type ReplicaTarget = {
  /** Where, for messages (never credentials). */
  label: string;
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Every key under `prefix` (e.g. `segments/`), with its size. */
  list(prefix: string): Promise<{ key: string; size: number }[]>;
  remove(key: string): Promise<void>;
};

/** A stored file's bytes, read from the file itself: a Response made of an S3 file would answer a redirect. */
export async function bytesOfStored(found: StoredFile): Promise<Uint8Array> {
  const body = found.body;
  return new Uint8Array(body instanceof Blob ? await body.arrayBuffer() : await new Response(body).arrayBuffer());
}

export function openTarget(replica: SanitizedReplica): ReplicaTarget {
  return replica.folder ? folderTarget(replica.folder) : s3Target(replica);
}

function folderTarget(root: string): ReplicaTarget {
  const file = (key: string) => path.join(root, ...key.split('/'));
  return {
    label: root,
    async put(key, bytes) {
      const target = file(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${process.pid}.partial`;
      // Off the event loop (the flush to disk takes milliseconds): requests go on meanwhile.
      const handle = await fs.promises.open(temp, 'w', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.promises.rename(temp, target);
    },
    async get(key) {
      const target = file(key);
      return fs.existsSync(target) ? new Uint8Array(fs.readFileSync(target)) : null;
    },
    async list(prefix) {
      const dir = file(prefix);
      if (!fs.existsSync(dir)) return [];
      return fs
        .readdirSync(dir)
        .filter((name) => !name.endsWith('.partial'))
        .map((name) => ({ key: prefix + name, size: fs.statSync(path.join(dir, name)).size }));
    },
    async remove(key) {
      fs.rmSync(file(key), { force: true });
    },
  };
}

function s3Target(replica: SanitizedReplica): ReplicaTarget {
  // One adapter per folder of the replica (`segments/`, `snapshots/`, …): the adapter lists one flat level.
  const folders = new Map<string, ReturnType<typeof createS3Storage>>();
  const within = (folder: string) => {
    let s3 = folders.get(folder);
    if (!s3) {
      const prefix = [replica.prefix, folder].filter(Boolean).join('/');
      folders.set(folder, (s3 = createS3Storage({ type: 's3', ...replica.s3, bucket: replica.bucket!, prefix })));
    }
    return s3;
  };
  const split = (key: string) => {
    const at = key.lastIndexOf('/');
    return { s3: within(key.slice(0, at)), name: key.slice(at + 1) };
  };
  return {
    label: replica.url,
    async put(key, bytes) {
      const { s3, name } = split(key);
      await s3.put(name, new Blob([bytes as Uint8Array<ArrayBuffer>]), {
        contentType: 'application/octet-stream',
        size: bytes.length,
      });
    },
    async get(key) {
      const { s3, name } = split(key);
      const found = await s3.get(name);
      if (!found) return null;
      return bytesOfStored(found);
    },
    async list(prefix) {
      const keys: { key: string; size: number }[] = [];
      for await (const { key, size } of within(prefix.replace(/\/$/, '')).list!())
        keys.push({ key: prefix + key, size: size ?? 0 });
      return keys;
    },
    async remove(key) {
      const { s3, name } = split(key);
      await s3.delete(name);
    },
  };
}
