/** The release routes (docs/releases.md), present only with `releases: true`. */
import type { SanitizedConfig } from '../config/types.ts';
import type { Schema } from './field-schemas.ts';
import { listOf } from './components.ts';
import { json, operation, parameter, pathParameter, type Paths } from './operation.ts';

const string = { type: 'string' };
const nullableString = { type: ['string', 'null'] };
const nullableInteger = { type: ['integer', 'null'] };

const item: Schema = {
  type: 'object',
  required: ['id', 'action', 'version', 'title', 'changedSinceAdded'],
  properties: {
    id: { type: 'integer' },
    collection: string,
    document: { type: 'integer' },
    global: string,
    action: { enum: ['publish', 'unpublish'] },
    version: nullableInteger,
    title: string,
    changedSinceAdded: { type: 'boolean' },
  },
};

const release: Schema = {
  type: 'object',
  required: ['id', 'title', 'status', 'items', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'integer' },
    title: string,
    description: nullableString,
    status: { enum: ['open', 'scheduled', 'published', 'failed'] },
    publishAt: nullableString,
    publishedAt: nullableString,
    publishedBy: nullableInteger,
    errors: { type: ['array', 'null'], items: { type: 'object' } },
    revertOf: nullableInteger,
    items: { type: 'array', items: item },
    createdBy: nullableInteger,
    createdAt: string,
    updatedAt: string,
  },
};

const doc = (extra: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  required: ['doc'],
  properties: { doc: release, message: string, ...extra },
});
const id = pathParameter('id', { type: 'integer' });
const tags = ['releases'];

export function releasePaths(config: SanitizedConfig): Paths {
  if (!config.releases) return {};
  const action = (path: string, summary: string, status: number, errors: number[], body?: Schema) =>
    operation('post', path, { summary, tags, parameters: [id], ok: { [status]: json(doc()) }, errors, body });
  return {
    '/releases': {
      get: operation('get', '/releases', {
        summary: 'Releases, newest first',
        tags,
        parameters: [parameter('where'), parameter('sort'), parameter('limit'), parameter('page')],
        ok: { 200: json(listOf(release)) },
        errors: [400, 401, 403],
      }),
      post: operation('post', '/releases', {
        summary: 'Create a release (keys need releases:write)',
        tags,
        body: {
          type: 'object',
          required: ['title'],
          properties: { title: string, description: string, publishAt: { type: 'string', format: 'date-time' } },
        },
        ok: { 201: json(doc()) },
        errors: [400, 401, 403],
      }),
    },
    '/releases/{id}': {
      get: operation('get', '/releases/{id}', {
        summary: 'One release with its items',
        tags,
        parameters: [id],
        ok: { 200: json(release) },
        errors: [401, 403, 404],
      }),
      patch: operation('patch', '/releases/{id}', {
        summary: 'Change the title or description (open or scheduled releases)',
        tags,
        parameters: [id],
        body: { type: 'object', properties: { title: string, description: nullableString } },
        ok: { 200: json(doc()) },
        errors: [400, 401, 403, 404, 409],
      }),
      delete: operation('delete', '/releases/{id}', {
        summary: 'Delete a release that is not published',
        tags,
        parameters: [id],
        ok: { 200: json(doc()) },
        errors: [401, 403, 404, 409],
      }),
    },
    '/releases/{id}/items': {
      post: action(
        '/releases/{id}/items',
        'Add a document or global (pins its draft)',
        200,
        [400, 401, 403, 404, 409],
        {
          type: 'object',
          required: ['action'],
          properties: {
            collection: string,
            id: { type: ['integer', 'string'] },
            global: string,
            action: { enum: ['publish', 'unpublish'] },
            version: { type: ['integer', 'string'] },
          },
        },
      ),
    },
    '/releases/{id}/items/{item}': {
      delete: operation('delete', '/releases/{id}/items/{item}', {
        summary: 'Remove an item (open releases)',
        tags,
        parameters: [id, pathParameter('item', { type: 'integer' })],
        ok: { 200: json(doc()) },
        errors: [400, 401, 403, 404, 409],
      }),
    },
    '/releases/{id}/publish': {
      post: action(
        '/releases/{id}/publish',
        'Publish every item at once, or nothing (409 naming each failing item)',
        200,
        [401, 403, 404, 409],
      ),
    },
    '/releases/{id}/schedule': {
      post: action('/releases/{id}/schedule', 'Schedule the publish at a future time', 200, [400, 401, 403, 404, 409], {
        type: 'object',
        required: ['at'],
        properties: { at: { type: 'string', format: 'date-time' } },
      }),
    },
    '/releases/{id}/unschedule': {
      post: action('/releases/{id}/unschedule', 'Take a scheduled release back to open', 200, [401, 403, 404, 409]),
    },
    '/releases/{id}/preview': {
      post: operation('post', '/releases/{id}/preview', {
        summary: 'A token for reads with release=<id> without login, for an hour',
        tags,
        parameters: [id],
        ok: {
          200: json({
            type: 'object',
            required: ['token', 'expiresAt'],
            properties: { token: string, expiresAt: { type: 'string', format: 'date-time' } },
          }),
        },
        errors: [400, 401, 403, 404],
      }),
    },
    '/releases/{id}/revert': {
      post: action(
        '/releases/{id}/revert',
        'A new open release putting back what was live before',
        201,
        [401, 403, 404, 409],
      ),
    },
  };
}
