/**
 * What every part of the document refers to: the error shape, the list shape, version records, scheduled
 * jobs, session answers, query parameters and the security schemes (docs/documents.md, docs/accounts.md, docs/payload-compatibility.md).
 */
import type { SanitizedConfig } from '../config/types.ts';
import type { Schema } from './field-schemas.ts';
import { OPERAND_KINDS, spellingsOf, type OperandKind } from '../query/operators.ts';

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const string = { type: 'string' };
const integer = { type: 'integer' };
const nullableString = { type: ['string', 'null'] };
const nullableInteger = { type: ['integer', 'null'] };

/** The list shape (docs/documents.md) around `items`. */
export function listOf(items: Schema): Schema {
  return {
    type: 'object',
    required: [
      'docs',
      'totalDocs',
      'limit',
      'page',
      'totalPages',
      'hasNextPage',
      'hasPrevPage',
      'nextPage',
      'prevPage',
    ],
    properties: {
      docs: { type: 'array', items },
      totalDocs: integer,
      limit: integer,
      page: integer,
      totalPages: integer,
      hasNextPage: { type: 'boolean' },
      hasPrevPage: { type: 'boolean' },
      nextPage: nullableInteger,
      prevPage: nullableInteger,
    },
  };
}

/** `{ doc, message }`, the answer of every single-document write. */
export const docAnswer = (doc: Schema, extra: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  required: ['doc', 'message'],
  properties: { doc, message: string, ...extra },
});

/** `status` and its Payload alias `_status` on collections and globals with drafts (docs/documents.md, docs/payload-compatibility.md). */
export function statusProperties(drafts: boolean): Record<string, Schema> {
  const status = { enum: ['draft', 'published'] };
  return drafts ? { status, _status: status } : {};
}

export const message: Schema = { type: 'object', required: ['message'], properties: { message: string } };

/** What each operand kind of the where operators takes: query strings send text, JSON `where` numbers and booleans too. */
const scalar: Schema = { type: ['string', 'number', 'boolean', 'null'] };
const operandSchemas: Record<OperandKind, Schema> = {
  value: scalar,
  list: { anyOf: [{ type: 'array', items: scalar }, string] },
  text: string,
  boolean: { anyOf: [{ type: 'boolean' }, { enum: ['true', 'false'] }] },
  point: { ...string, description: '`<lng>,<lat>,<max metres>[,<min metres>]` on a point field; sorts by distance.' },
};

/** The query shapes `where`, `select` and `populate` take (docs/openapi.md), so generated clients type them. */
function querySchemas(): Record<string, Schema> {
  return {
    WhereCondition: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        OPERAND_KINDS.flatMap((kind) => spellingsOf(kind).map((name) => [name, operandSchemas[kind]])),
      ),
    },
    Where: {
      type: 'object',
      description:
        'Field paths (`title`, `seo.title`, `links.url`, `category.name`) to conditions; `and`/`or` take lists of further `where` objects.',
      properties: { and: { type: 'array', items: ref('Where') }, or: { type: 'array', items: ref('Where') } },
      additionalProperties: { anyOf: [ref('WhereCondition'), { type: 'array', items: ref('Where') }] },
    },
    Select: {
      type: 'object',
      description: '`true` keeps a field, `false` leaves it out; groups and arrays take a nested select.',
      additionalProperties: { anyOf: [{ type: 'boolean' }, { enum: ['true', 'false'] }, ref('Select')] },
    },
    Populate: {
      type: 'object',
      description: 'Per related collection slug, the select applied to its populated documents.',
      additionalProperties: ref('Select'),
    },
  };
}

export function sharedSchemas(config: SanitizedConfig): Record<string, Schema> {
  const target = config.collections.length || config.globals.length;
  return {
    ...querySchemas(),
    Error: {
      type: 'object',
      required: ['errors'],
      properties: {
        errors: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['message'],
            properties: { message: string, field: string, path: string },
          },
        },
      },
    },
    ScheduledJob: {
      type: 'object',
      required: ['id', 'action', 'at', 'parent', 'state', 'createdAt'],
      properties: {
        id: integer,
        action: { enum: ['publish', 'unpublish'] },
        at: string,
        parent: { type: ['integer', 'string', 'null'] },
        state: string,
        createdAt: string,
        ...(target ? { collection: string, global: string } : {}),
      },
    },
    ScheduleRequest: {
      type: 'object',
      required: ['action', 'at'],
      properties: { action: { enum: ['publish', 'unpublish'] }, at: { type: 'string', format: 'date-time' } },
    },
    LoginRequest: {
      type: 'object',
      required: ['email', 'password'],
      properties: {
        email: string,
        password: string,
        code: { type: 'string', description: 'TOTP or recovery code, when two-factor sign-in is on.' },
      },
    },
    LoginResult: {
      type: 'object',
      required: ['user', 'token', 'exp', 'csrfToken'],
      properties: {
        message: string,
        user: ref('Users'),
        token: string,
        exp: integer,
        csrfToken: string,
        twoFactorSetupRequired: { type: 'boolean' },
      },
    },
    Session: {
      type: 'object',
      required: ['id', 'createdAt', 'lastUsedAt', 'expiresAt', 'current'],
      properties: {
        id: string,
        createdAt: string,
        lastUsedAt: string,
        expiresAt: string,
        userAgent: nullableString,
        ip: nullableString,
        current: { type: 'boolean' },
      },
    },
    Backup: {
      type: 'object',
      required: ['name'],
      properties: { name: string, size: integer, createdAt: string },
    },
    WebhookDelivery: {
      type: 'object',
      required: ['id', 'event', 'url', 'state', 'attempts', 'createdAt'],
      properties: {
        id: { type: ['integer', 'string'] },
        event: string,
        url: string,
        collection: nullableString,
        global: nullableString,
        docId: { type: ['integer', 'string', 'null'] },
        state: { enum: ['pending', 'sending', 'failed'] },
        attempts: integer,
        lastError: nullableString,
        nextAttemptAt: nullableString,
        createdAt: string,
      },
    },
    AuditEntry: {
      type: 'object',
      required: ['id', 'at', 'action', 'document', 'user', 'apiKey', 'via', 'ip', 'changes'],
      properties: {
        id: integer,
        at: string,
        action: string,
        collection: string,
        global: string,
        document: nullableInteger,
        user: nullableInteger,
        apiKey: nullableInteger,
        via: { enum: ['rest', 'graphql', 'mcp', 'local', 'job', 'cli'] },
        ip: nullableString,
        changes: {
          type: 'object',
          description: 'Each changed value by path, as `{ from, to }`.',
          additionalProperties: { type: 'object', properties: { from: {}, to: {} } },
        },
      },
    },
    SearchResult: {
      type: 'object',
      required: ['docs', 'totalDocs'],
      properties: {
        docs: {
          type: 'array',
          items: {
            type: 'object',
            required: ['collection', 'id', 'title', 'snippet', 'rank'],
            properties: { collection: string, id: integer, title: string, snippet: string, rank: { type: 'number' } },
          },
        },
        totalDocs: integer,
      },
    },
    Lock: {
      type: 'object',
      required: ['user', 'lockedAt', 'expiresAt', 'mine'],
      properties: {
        user: {
          anyOf: [
            {
              type: 'object',
              required: ['id', 'email', 'name'],
              properties: { id: integer, email: string, name: nullableString },
            },
            { type: 'null' },
          ],
        },
        lockedAt: string,
        expiresAt: string,
        mine: { type: 'boolean' },
        token: { type: 'string', description: 'Only in the answer to the one who took the lock.' },
      },
    },
    JobRun: {
      type: 'object',
      required: ['jobs', 'webhooks'],
      properties: {
        jobs: { type: 'object', required: ['ran', 'failed'], properties: { ran: integer, failed: integer } },
        webhooks: {
          type: 'object',
          required: ['sent', 'failed', 'pending'],
          properties: { sent: integer, failed: integer, pending: integer },
        },
      },
    },
  };
}

/** A version record (docs/drafts-and-versions.md): `version` holds the document as it was saved. */
export function versionRecord(document: Schema): Schema {
  return {
    type: 'object',
    required: ['id', 'parent', 'version', 'createdAt', 'updatedAt', 'latest'],
    properties: {
      id: integer,
      parent: { type: ['integer', 'string', 'null'] },
      version: document,
      status: string,
      createdAt: string,
      updatedAt: string,
      latest: { type: 'boolean' },
      author: {},
    },
  };
}

const queryParameter = (name: string, schema: Schema, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});

export function sharedParameters(config: SanitizedConfig): Record<string, unknown> {
  const locales = config.localization?.locales;
  return {
    where: {
      ...queryParameter(
        'where',
        ref('Where'),
        'Filter: `where[<field>][<operator>]=<value>` (qs bracket form), or a JSON object; `and`/`or` nest.',
      ),
      style: 'deepObject',
      explode: true,
    },
    sort: queryParameter('sort', string, 'A field name; a leading `-` sorts descending.'),
    limit: queryParameter('limit', { type: 'integer', minimum: 1, maximum: 100, default: 10 }, 'Page size, 1 to 100.'),
    page: queryParameter('page', { type: 'integer', minimum: 1, default: 1 }, 'Page number.'),
    depth: queryParameter(
      'depth',
      { type: 'integer', minimum: 0, maximum: 3, default: 1 },
      'How deep relationships are populated; 0 gives ids.',
    ),
    // Booleans: a generated client sends `true`/`false`, which is what the server reads.
    draft: queryParameter(
      'draft',
      { type: 'boolean' },
      'Read the pending draft, or save as a draft (logged-in users).',
    ),
    richText: queryParameter(
      'richText',
      { enum: ['html', 'markdown', 'text'] },
      'Each rich text value as a string in that format instead of its JSON (docs/rich-text.md).',
    ),
    search: queryParameter(
      'search',
      string,
      "Full-text search in the collection's search fields: every word must match, the last as a prefix; best match first unless `sort` is given.",
    ),
    select: {
      ...queryParameter(
        'select',
        ref('Select'),
        '`select[<field>]=true` returns only those fields, `=false` omits them.',
      ),
      style: 'deepObject',
      explode: true,
    },
    populate: {
      ...queryParameter(
        'populate',
        ref('Populate'),
        '`populate[<collection>][<field>]=true` narrows populated documents.',
      ),
      style: 'deepObject',
      explode: true,
    },
    pagination: queryParameter(
      'pagination',
      { type: 'boolean' },
      '`false` returns every matching document in one answer.',
    ),
    preview: queryParameter('preview', string, 'A preview token: the current draft without login.'),
    release: queryParameter(
      'release',
      string,
      'Release ids separated by commas: the answer as if they were published in that order (with `releases: true`).',
    ),
    ...(locales
      ? {
          locale: queryParameter(
            'locale',
            { enum: [...locales, 'all'] },
            'The locale to read or write; `all` reads every locale keyed by code.',
          ),
          fallbackLocale: queryParameter(
            'fallback-locale',
            string,
            '`false` turns off the fallback to the default locale.',
          ),
        }
      : {}),
  };
}

/** Cookie sessions need the CSRF header on writes; bearer sessions and API keys do not (docs/accounts.md). */
export const securitySchemes = {
  bearerSession: {
    type: 'http',
    scheme: 'bearer',
    description: 'A session token (the `cms-session` value), as `Bearer` or `JWT`.',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'cms_…',
    description: 'An API key, acting as its user within its scopes; also `users API-Key <key>`.',
  },
  sessionCookie: { type: 'apiKey', in: 'cookie', name: 'cms-session' },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'x-csrf-token',
    description:
      'Required with the cookie on POST, PATCH, PUT and DELETE; from the login answer, `GET /users/me` or the `cms-csrf` cookie.',
  },
  cronSecret: { type: 'http', scheme: 'bearer', description: 'The cron secret (`jobs.secret` or CMS_CRON_SECRET).' },
};

/** Reads may be public (access rules decide); writes need credentials, and the cookie needs its CSRF token. */
export const readSecurity = [{}, { bearerSession: [] }, { apiKey: [] }, { sessionCookie: [] }];
export const writeSecurity = [{ bearerSession: [] }, { apiKey: [] }, { sessionCookie: [], csrfToken: [] }];
export const publicSecurity = [{}];
