/**
 * S3-compatible storage on Bun's own client (`Bun.S3Client`: no SDK to install, works inside the
 * compiled binary). Selected in config with `upload.storage: { type: 's3', bucket, … }` (docs/media.md).
 * Credentials and region are read from the options, else from the environment when the service starts;
 * without them the service still starts, and the first use fails with a message saying what is missing.
 */
import type { S3Client, S3Options } from 'bun';
import type { S3StorageOptions, StorageAdapter, StoredFile } from '../../config/types.ts';
import { ConfigError } from '../../errors.ts';

/** Above this, files go up as a multipart upload one part at a time, so memory stays flat whatever the size. */
const PART_SIZE = 8 * 1024 * 1024;

type Env = Record<string, string | undefined>;

export function createS3Storage(options: S3StorageOptions, env: Env = process.env): StorageAdapter {
  const settings = resolveS3Settings(options, env);
  let client: S3Client | null = null;
  const connect = (): S3Client => {
    if (!settings.client.accessKeyId || !settings.client.secretAccessKey) {
      throw new Error(
        `S3 storage (bucket "${settings.client.bucket}") has no credentials: set accessKeyId and secretAccessKey in upload.storage, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment before the service starts.`,
      );
    }
    client ??= new Bun.S3Client(settings.client);
    return client;
  };
  const keyOf = (key: string) => settings.prefix + key;
  const fail = (action: string, key: string, error: unknown): never => {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`S3 storage could not ${action} "${keyOf(key)}" in bucket "${settings.client.bucket}": ${reason}`, {
      cause: error,
    });
  };

  return {
    async put(key, body, { contentType, size }) {
      const s3 = connect();
      try {
        if (size <= PART_SIZE) {
          await s3.write(keyOf(key), body, { type: contentType });
          return;
        }
        const writer = s3.file(keyOf(key)).writer({ type: contentType, partSize: PART_SIZE, queueSize: 2 });
        let pending = 0;
        for await (const chunk of body.stream()) {
          // A promise here is a write that could not be queued at once; awaited, so a rejection fails this put.
          const written = writer.write(chunk);
          if (written instanceof Promise) await written;
          pending += chunk.byteLength;
          // The writer queues without limit; waiting per part keeps at most a couple of parts in memory.
          if (pending >= PART_SIZE) {
            await writer.flush();
            pending = 0;
          }
        }
        await writer.end();
      } catch (error) {
        await s3.delete(keyOf(key)).catch(() => {});
        fail('store', key, error);
      }
    },
    async get(key): Promise<StoredFile | null> {
      const file = connect().file(keyOf(key));
      try {
        const stat = await file.stat();
        return { body: file, size: stat.size, etag: stat.etag, lastModified: stat.lastModified.getTime() };
      } catch (error) {
        if (isMissing(error)) return null;
        return fail('read', key, error);
      }
    },
    async delete(key) {
      try {
        await connect().delete(keyOf(key));
      } catch (error) {
        if (!isMissing(error)) fail('delete', key, error);
      }
    },
    async *list() {
      const s3 = connect();
      let continuationToken: string | undefined;
      do {
        const page = await s3.list({ prefix: settings.prefix || undefined, continuationToken });
        for (const item of page.contents ?? []) {
          const lastModified = item.lastModified ? Date.parse(item.lastModified) : NaN;
          // Keys outside our prefix's flat layout (folders below it) are not ours to judge.
          const key = item.key.slice(settings.prefix.length);
          if (Number.isFinite(lastModified) && key && !key.includes('/')) yield { key, lastModified, size: item.size };
        }
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (continuationToken);
    },
    url: settings.publicUrl ? (key) => `${settings.publicUrl}/${encodePath(keyOf(key))}` : undefined,
  };
}

export type S3Settings = { client: S3Options & { bucket: string }; prefix: string; publicUrl: string | null };

/** The config's S3 options (docs/media.md) mapped onto Bun's client: path style is Bun's default; `virtualHostedStyle` is the other. */
export function resolveS3Settings(options: S3StorageOptions, env: Env): S3Settings {
  if (typeof options.bucket !== 'string' || !options.bucket)
    throw new ConfigError('Config error: upload.storage.bucket: S3 storage needs a bucket name');
  const region = options.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const pathStyle = options.forcePathStyle ?? Boolean(options.endpoint);
  const client: S3Settings['client'] = {
    bucket: options.bucket,
    region,
    accessKeyId: options.accessKeyId ?? env.AWS_ACCESS_KEY_ID,
    secretAccessKey: options.secretAccessKey ?? env.AWS_SECRET_ACCESS_KEY,
    sessionToken: options.sessionToken ?? env.AWS_SESSION_TOKEN,
  };
  if (options.endpoint) {
    let endpoint: URL;
    try {
      endpoint = new URL(options.endpoint);
    } catch {
      throw new ConfigError(`Config error: upload.storage.endpoint: "${options.endpoint}" is not a URL`);
    }
    // Bun's virtual-hosted style takes an endpoint that already names the bucket.
    if (!pathStyle) endpoint.hostname = `${options.bucket}.${endpoint.hostname}`;
    client.endpoint = endpoint.origin + endpoint.pathname.replace(/\/+$/, '');
  }
  if (!pathStyle) client.virtualHostedStyle = true;
  const prefix = (options.prefix ?? '').replace(/^\/+|\/+$/g, '');
  return {
    client,
    prefix: prefix ? `${prefix}/` : '',
    publicUrl: options.publicUrl ? String(options.publicUrl).replace(/\/+$/, '') : null,
  };
}

function isMissing(error: unknown): boolean {
  const e = error as { code?: string; name?: string } | null;
  return e?.code === 'NoSuchKey' || e?.code === 'NotFound' || e?.name === 'NotFound';
}

function encodePath(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
