/// <reference path="./types/assets.d.ts" />
/**
 * The package entry (`import { getCMS } from 'cms'`): the Local API, the server, the helpers and the config
 * types. The reference above brings the embedded-file module declarations into a consumer's compile, which
 * checks these sources as they are (the package ships TypeScript, run by Bun directly).
 */
export { getCMS, localAPI, type LocalAPI, type GetCMSOptions } from './local.ts';
export type { TypedWhere } from './local-types.ts';
export type { CMSTypesShape } from './wire/typed-api.ts';
export { createCMS } from './create-cms.ts';
export type { CMS } from './cms.ts';
export { startServer } from './server.ts';
export { getCMSUser, useCMSUser } from './http/user-helpers.ts';
export { APIError } from './errors.ts';
export { manualClock, systemClock, type Clock } from './clock.ts';
export type {
  UserConfig as Config,
  CollectionConfig,
  GlobalConfig,
  Field,
  AccessRule,
  Hook,
  StorageAdapter,
  Where,
  User,
} from './config/types.ts';
