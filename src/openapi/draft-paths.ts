/** The drafts routes shared by a collection's documents (`/:collection/:id/…`) and globals (`/globals/:slug/…`): docs/drafts-and-versions.md. */
import { docAnswer, listOf, ref } from './components.ts';
import type { Schema } from './field-schemas.ts';
import { json, operation, parameter, pathParameter, type Paths } from './operation.ts';

type DraftTarget = { tags: string[]; target: unknown[]; doc: Schema; record: Schema; locale: unknown[] };

export function draftPaths(prefix: string, { tags, target, doc, record, locale }: DraftTarget): Paths {
  const version = pathParameter('version');
  const job = pathParameter('job');
  const changed = (summary: string, path: string) =>
    operation('post', path, {
      summary,
      tags,
      parameters: [...target, parameter('depth'), ...locale],
      ok: { 200: json(docAnswer(doc)) },
      errors: [400, 401, 403, 404],
    });
  return {
    [`${prefix}/versions`]: {
      get: operation('get', `${prefix}/versions`, {
        summary: 'Versions, newest first',
        tags,
        parameters: [...target, parameter('limit'), parameter('page'), parameter('depth'), ...locale],
        ok: { 200: json(listOf(record)) },
        errors: [400, 401, 403, 404],
      }),
    },
    [`${prefix}/versions/{version}`]: {
      get: operation('get', `${prefix}/versions/{version}`, {
        summary: 'One version with its data',
        tags,
        parameters: [...target, version, parameter('depth'), ...locale],
        ok: { 200: json(record) },
        errors: [401, 403, 404],
      }),
    },
    [`${prefix}/versions/{version}/restore`]: {
      post: operation('post', `${prefix}/versions/{version}/restore`, {
        summary: 'Restore a version',
        tags,
        parameters: [...target, version, parameter('depth')],
        ok: { 200: json(docAnswer(doc)) },
        errors: [401, 403, 404],
      }),
    },
    [`${prefix}/unpublish`]: { post: changed('Unpublish', `${prefix}/unpublish`) },
    [`${prefix}/discard-draft`]: { post: changed('Discard the pending draft', `${prefix}/discard-draft`) },
    [`${prefix}/schedule`]: {
      get: operation('get', `${prefix}/schedule`, {
        summary: 'Pending scheduled jobs, soonest first',
        tags,
        parameters: target,
        ok: {
          200: json({
            type: 'object',
            required: ['docs'],
            properties: { docs: { type: 'array', items: ref('ScheduledJob') } },
          }),
        },
        errors: [401, 403, 404],
      }),
      post: operation('post', `${prefix}/schedule`, {
        summary: 'Schedule a publish or unpublish',
        tags,
        parameters: target,
        body: ref('ScheduleRequest'),
        ok: { 201: json({ type: 'object', required: ['doc'], properties: { doc: ref('ScheduledJob') } }, 'Scheduled') },
        errors: [400, 401, 403, 404],
      }),
    },
    [`${prefix}/schedule/{job}`]: {
      delete: operation('delete', `${prefix}/schedule/{job}`, {
        summary: 'Cancel a scheduled job',
        tags,
        parameters: [...target, job],
        ok: { 200: json(docAnswer(ref('ScheduledJob'))) },
        errors: [401, 403, 404],
      }),
    },
  };
}
