/**
 * `GET /openapi.json` (docs/openapi.md): an OpenAPI 3.1 document of this instance's API, generated from the
 * sanitized config as the caller sees it (caller-view.ts). The config does not change while an instance
 * runs, so each caller's text is made once per instance and set of refused fields (in practice per role).
 */
import pkg from '../../package.json' with { type: 'json' };
import type { SanitizedConfig } from '../config/types.ts';
import { securitySchemes, sharedParameters, sharedSchemas } from './components.ts';
import { collectionPaths, collectionSchemas } from './collection-paths.ts';
import { globalPaths, globalSchemas } from './global-paths.ts';
import { accountPaths } from './account-paths.ts';
import { operationsPaths } from './operations-paths.ts';
import { sitePaths } from './site-paths.ts';
import { releasePaths } from './release-paths.ts';
import type { Paths } from './operation.ts';
import { callerConfig } from './caller-view.ts';

export function openAPIDocument(config: SanitizedConfig): Record<string, unknown> {
  const schemas = { ...sharedSchemas(config) };
  const paths: Paths = {};
  for (const collection of config.collections) {
    Object.assign(schemas, collectionSchemas(config, collection));
    Object.assign(paths, collectionPaths(config, collection));
  }
  for (const global of config.globals) {
    Object.assign(schemas, globalSchemas(config, global));
    Object.assign(paths, globalPaths(config, global));
  }
  Object.assign(paths, accountPaths(), operationsPaths(config), sitePaths(config), releasePaths(config));
  return {
    openapi: '3.1.0',
    info: {
      title: 'CMS API',
      version: pkg.version,
      description:
        "Generated from this instance's config. Errors answer `{ errors: [{ message, field? }] }`. Cookie sessions send `x-csrf-token` on writes; bearer sessions and API keys do not.",
    },
    // Relative, so the document holds wherever the instance is served; absolute when serverURL is set.
    servers: [{ url: `${config.serverURL ?? ''}${config.routes.api}` || '/' }],
    paths,
    components: { schemas, parameters: sharedParameters(config), securitySchemes },
  };
}

const made = new WeakMap<SanitizedConfig, Map<string, string>>();

/** The document as JSON text for a caller refused the `refused` fields, made once per config and refusal set. */
export function openAPIText(config: SanitizedConfig, refused: string[] = []): string {
  let texts = made.get(config);
  if (!texts) made.set(config, (texts = new Map()));
  const key = refused.join('\n');
  let text = texts.get(key);
  if (text === undefined) texts.set(key, (text = JSON.stringify(openAPIDocument(callerConfig(config, refused)))));
  return text;
}
