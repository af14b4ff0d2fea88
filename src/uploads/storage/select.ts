/** Picks the storage adapter from `upload.storage` (docs/media.md) and makes it ready; the S3 adapter loads only when chosen. */
import type { SanitizedConfig, S3StorageOptions, StorageAdapter } from '../../config/types.ts';
import { ConfigError } from '../../errors.ts';
import { createLocalStorage } from './local.ts';
import { watchStorage } from './storage-health.ts';

/** null → local disk in `upload.dir`; `{ type: 's3', … }` → the built-in S3 adapter; an object with put/get/delete → itself. */
export async function createStorage(
  config: SanitizedConfig,
  env: Record<string, string | undefined> = process.env,
): Promise<StorageAdapter> {
  const chosen = config.upload.storage;
  let adapter: StorageAdapter;
  if (chosen === null || chosen === undefined) adapter = createLocalStorage(config.upload.dir);
  else if ((chosen as S3StorageOptions).type === 's3')
    adapter = (await import('./s3.ts')).createS3Storage(chosen as S3StorageOptions, env);
  else if (
    ['put', 'get', 'delete'].every((m) => typeof (chosen as unknown as Record<string, unknown>)[m] === 'function')
  )
    adapter = chosen as StorageAdapter;
  else
    throw new ConfigError(
      "Config error: upload.storage: expected { type: 's3', bucket, … } or an adapter with put, get and delete",
    );
  await adapter.init?.();
  return watchStorage(adapter);
}
