/** Routes for running the box (docs/webhooks.md, docs/operations.md): jobs, webhook deliveries, health, metrics, backups, and this document. */
import type { SanitizedConfig } from '../config/types.ts';
import { listOf, publicSecurity, readSecurity, ref, writeSecurity } from './components.ts';
import { json, operation, parameter, pathParameter, type Paths } from './operation.ts';

const cron = { cronSecret: [] };
/** An optional query parameter of one route. */
export const query = (name: string, schema: Record<string, unknown>, description?: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  ...(description ? { description } : {}),
});

export function operationsPaths(config: SanitizedConfig): Paths {
  const paths: Paths = {
    '/jobs/run': {
      get: operation('get', '/jobs/run', {
        summary: "Run due scheduled jobs and webhook retries (cron secret, or an admin's bearer session or key)",
        tags: ['jobs'],
        security: [cron, { bearerSession: [] }, { apiKey: [] }],
        ok: { 200: json(ref('JobRun')) },
        errors: [401, 403],
      }),
      post: operation('post', '/jobs/run', {
        summary: 'Run due scheduled jobs and webhook retries',
        tags: ['jobs'],
        security: [cron, ...writeSecurity],
        ok: { 200: json(ref('JobRun')) },
        errors: [401, 403],
      }),
    },
    '/jobs/scheduled': {
      get: operation('get', '/jobs/scheduled', {
        summary: 'Pending scheduled jobs across the site, soonest first (admins)',
        tags: ['jobs'],
        parameters: [
          parameter('limit'),
          parameter('page'),
          query('collection', { type: 'string' }),
          query('global', { type: 'string' }),
          query('parent', { type: 'string' }),
        ],
        ok: { 200: json(listOf(ref('ScheduledJob'))) },
        errors: [400, 401, 403],
      }),
    },
    '/health': {
      get: operation('get', '/health', {
        summary: 'Health (public; admins get more)',
        tags: ['operations'],
        security: readSecurity,
        ok: {
          200: json({
            type: 'object',
            required: ['status', 'version', 'database'],
            properties: { status: { const: 'ok' }, version: { type: 'string' }, database: { const: 'ok' } },
          }),
        },
        errors: [503],
      }),
    },
    '/metrics': {
      get: operation('get', '/metrics', {
        summary: 'Prometheus metrics (admins or the cron secret)',
        tags: ['operations'],
        security: [cron, ...readSecurity.slice(1)],
        ok: {
          200: { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } },
        },
        errors: [401, 403],
      }),
    },
    '/backups': {
      get: operation('get', '/backups', {
        summary: 'Backups, newest first (admins)',
        tags: ['operations'],
        ok: {
          200: json({
            type: 'object',
            required: ['docs', 'totalDocs'],
            properties: { docs: { type: 'array', items: ref('Backup') }, totalDocs: { type: 'integer' }, running: {} },
          }),
        },
        errors: [401, 403],
      }),
      post: operation('post', '/backups', {
        summary: 'Write a backup now (admins)',
        tags: ['operations'],
        ok: {
          201: json(
            {
              type: 'object',
              required: ['doc', 'message'],
              properties: { doc: ref('Backup'), message: { type: 'string' } },
            },
            'Written',
          ),
        },
        errors: [401, 403],
      }),
    },
    '/backups/{name}': {
      get: operation('get', '/backups/{name}', {
        summary: 'Download a backup (admins)',
        tags: ['operations'],
        parameters: [pathParameter('name')],
        ok: {
          200: {
            description: 'The archive',
            content: { 'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } } },
          },
        },
        errors: [401, 403, 404],
      }),
    },
    '/openapi.json': {
      get: operation('get', '/openapi.json', {
        summary: 'This document',
        tags: ['operations'],
        security: publicSecurity,
        ok: { 200: json({ type: 'object', required: ['openapi', 'info', 'paths'] }) },
      }),
    },
  };
  // Without webhooks these paths do not exist.
  if (config.webhooks.length > 0) {
    paths['/webhook-deliveries'] = {
      get: operation('get', '/webhook-deliveries', {
        summary: 'Webhook deliveries (admins)',
        tags: ['webhooks'],
        parameters: [parameter('limit'), parameter('page'), query('state', { enum: ['pending', 'sending', 'failed'] })],
        ok: { 200: json(listOf(ref('WebhookDelivery'))) },
        errors: [400, 401, 403],
      }),
    };
    paths['/webhook-deliveries/{id}/retry'] = {
      post: operation('post', '/webhook-deliveries/{id}/retry', {
        summary: 'Put a failed delivery back to pending, due now (admins)',
        tags: ['webhooks'],
        parameters: [pathParameter('id')],
        ok: {
          200: json({
            type: 'object',
            required: ['doc', 'message'],
            properties: { doc: ref('WebhookDelivery'), message: { type: 'string' } },
          }),
        },
        errors: [400, 401, 403, 404],
      }),
    };
  }
  return paths;
}
