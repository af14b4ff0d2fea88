/** The package entry: the Local API, the server, the helpers and the config types. */
export { getCMS, localAPI, type LocalAPI } from './local.ts';
export { createCMS, type CMS } from './cms.ts';
export { startServer } from './server.ts';
export { getCMSUser, useCMSUser } from './auth/user-helpers.ts';
export { APIError } from './errors.ts';
export { manualClock, systemClock, type Clock } from './clock.ts';
export type { UserConfig as Config, CollectionConfig, GlobalConfig, Field, AccessRule, Hook, StorageAdapter, Where, User } from './config/types.ts';
