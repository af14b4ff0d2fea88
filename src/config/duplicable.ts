/**
 * Which collections' documents may be copied by duplicate: not accounts or API keys (a copy would be a
 * second login or a second secret), and not upload collections (a copy would share the stored file).
 */
import type { SanitizedCollection } from './types.ts';
import { isUploadCollection } from './upload-collections.ts';

export const isDuplicable = (collection: SanitizedCollection): boolean =>
  !isUploadCollection(collection) && collection.builtIn !== 'users' && collection.builtIn !== 'api-keys';
