/** The paths of one global: read (defaults until first saved), save, preview, and with drafts its versions, drafts and schedule. */
import type { SanitizedConfig, SanitizedGlobal } from '../config/types.ts';
import { ref, statusProperties, versionRecord } from './components.ts';
import { objectOf, type Schema } from './field-schemas.ts';
import { documentSchema, localeParameters, previewAnswer } from './collection-paths.ts';
import { draftPaths } from './draft-paths.ts';
import { schemaName } from './names.ts';
import { json, operation, parameter, type Paths } from './operation.ts';
import { lockPaths } from './lock-paths.ts';

/** `Global` is added to the name so a global never shares a component with a collection of the same slug. */
export const globalSchemaName = (global: SanitizedGlobal) => `${schemaName(global.slug)}Global`;

export function globalSchemas(config: SanitizedConfig, global: SanitizedGlobal): Record<string, Schema> {
  const name = globalSchemaName(global);
  return {
    [name]: documentSchema(config, global, 'global'),
    [`${name}Update`]: objectOf(global.fields, 'write', statusProperties(global.drafts)),
  };
}

export function globalPaths(config: SanitizedConfig, global: SanitizedGlobal): Paths {
  const name = globalSchemaName(global);
  const base = `/globals/${global.slug}`;
  const tags = [`globals/${global.slug}`];
  const locale = localeParameters(config);
  const doc = ref(name);
  const saved = {
    type: 'object',
    required: ['doc', 'result', 'message'],
    properties: { doc, result: doc, message: { type: 'string' } },
  };
  const paths: Paths = {
    [base]: {
      get: operation('get', base, {
        summary: `Read the ${global.slug} global`,
        tags,
        parameters: [
          parameter('depth'),
          parameter('draft'),
          parameter('select'),
          parameter('populate'),
          parameter('richText'),
          parameter('preview'),
          ...(config.releases ? [parameter('release')] : []),
          ...locale,
        ],
        ok: { 200: json(doc) },
        errors: [400, 401, 403],
      }),
      post: operation('post', base, {
        summary: `Save the ${global.slug} global`,
        description:
          'With `X-HTTP-Method-Override: GET` and a JSON body `{ data?, depth?, locale?, draft? }` this reads the global with `data` merged over it and saves nothing (docs/payload-compatibility.md); the answer is then the document.',
        tags,
        parameters: [parameter('depth'), parameter('draft'), ...locale],
        body: ref(`${name}Update`),
        ok: { 200: json({ anyOf: [saved, doc] }) },
        errors: [400, 401, 403],
      }),
    },
    [`${base}/preview`]: {
      post: operation('post', `${base}/preview`, {
        summary: `Live preview of unsaved changes to the ${global.slug} global`,
        tags,
        parameters: [parameter('depth'), ...locale],
        body: { type: 'object' },
        ok: { 200: json(previewAnswer(doc)) },
        errors: [400, 401, 403],
      }),
    },
  };
  if (global.drafts) {
    const record = versionRecord(doc);
    const drafts = draftPaths(base, { tags, target: [], doc, record, locale });
    // Payload restores a global's version with POST on the version's own path (docs/payload-compatibility.md).
    drafts[`${base}/versions/{version}`]!.post = {
      ...drafts[`${base}/versions/{version}/restore`]!.post,
      operationId: `postGlobals${schemaName(global.slug)}VersionsVersion`,
      summary: "Restore a version (Payload's path)",
    };
    Object.assign(paths, drafts);
  }
  Object.assign(paths, lockPaths(base, tags, []));
  return paths;
}
