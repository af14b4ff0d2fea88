/**
 * What `tools/list` answers: each tool's description and input schema, generated once per config. Slugs,
 * fields, required fields, select options and locales come from the config, so an assistant can build a
 * valid call without guessing.
 */
import type { SanitizedConfig } from '../config/types.ts';
import { dataSchema, type JSONSchema } from './field-schemas.ts';
import { mayWriteOverMCP } from './write-targets.ts';
import { PAYLOAD_OPERATORS } from '../query/operators.ts';

export type ToolDefinition = { name: string; description: string; inputSchema: JSONSchema & { type: 'object' } };

const WHERE_HELP = `A filter in the REST API's where syntax as JSON, e.g. {"title":{"like":"launch"}} or {"and":[{"status":{"equals":"draft"}},{"views":{"greater_than":10}}]}. Operators: ${PAYLOAD_OPERATORS.map((name) => (name === 'like' ? 'like (every word)' : name)).join(', ')}.`;

const cache = new WeakMap<SanitizedConfig, ToolDefinition[]>();

export function toolDefinitions(config: SanitizedConfig): ToolDefinition[] {
  let defs = cache.get(config);
  if (!defs) cache.set(config, (defs = build(config)));
  return defs;
}

function build(config: SanitizedConfig): ToolDefinition[] {
  const collections = config.collections.map((c) => c.slug);
  const drafts = config.collections.filter((c) => c.drafts).map((c) => c.slug);
  const globals = config.globals.map((g) => g.slug);
  const locales = config.localization ? [...config.localization.locales, 'all'] : null;
  const collection = { type: 'string', enum: collections, description: 'The collection slug (see describe).' };
  const writable = config.collections.filter(mayWriteOverMCP);
  const writableCollection = {
    type: 'string',
    enum: writable.map((c) => c.slug),
    description: 'The collection slug (see describe); accounts and API keys are not written over MCP.',
  };
  const global = { type: 'string', ...(globals.length ? { enum: globals } : {}), description: 'The global slug.' };
  const id = { type: 'integer', minimum: 1, description: 'The document id.' };
  const locale = locales
    ? {
        locale: {
          type: 'string',
          enum: locales,
          description: `The locale to read or write (default ${config.localization!.defaultLocale}); "all" reads or writes every locale as an object keyed by locale.`,
        },
      }
    : {};
  const depth = {
    depth: {
      type: 'integer',
      minimum: 0,
      maximum: 3,
      description: 'How deep to include related documents (0 = ids only, the default).',
    },
  };
  const draft = {
    draft: {
      type: 'boolean',
      description: 'Read the latest draft where one is pending (drafts collections and globals).',
    },
  };
  const paging = {
    limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Documents per page (default 10).' },
    page: {
      type: 'integer',
      minimum: 1,
      description: 'Page number (default 1); the answer says hasNextPage and nextPage.',
    },
  };
  const object = (properties: JSONSchema, required: string[]): ToolDefinition['inputSchema'] => ({
    type: 'object',
    properties,
    required,
    additionalProperties: false,
  });
  const dataOf = (operation: 'create' | 'update') => ({
    type: 'object',
    description: `The field values, per collection as below. ${drafts.length ? `On drafts collections (${drafts.join(', ')}) this saves a draft; status cannot be set here.` : ''}`,
    anyOf: writable.map((c) => dataSchema(config, c, operation)),
  });
  const target = {
    collection: writableCollection,
    id,
    global: { ...global, description: 'A global slug, instead of collection and id.' },
  };
  const defs: ToolDefinition[] = [
    {
      name: 'describe',
      description:
        'Lists the collections and globals of this CMS with their fields (types, required, options, localized), the locales, and what you may do with each (read, create, update, delete, publish). Call it first.',
      inputSchema: object({}, []),
    },
    {
      name: 'find',
      description:
        'Lists documents of a collection in pages, optionally filtered and sorted. Answers { docs, totalDocs, page, totalPages, hasNextPage, nextPage }.',
      inputSchema: object(
        {
          collection,
          where: { type: 'object', description: WHERE_HELP },
          sort: { type: 'string', description: 'Field to sort by, "-" first for descending, e.g. "-createdAt".' },
          ...paging,
          ...depth,
          ...draft,
          ...locale,
        },
        ['collection'],
      ),
    },
    {
      name: 'find_by_id',
      description: 'Reads one document by id.',
      inputSchema: object({ collection, id, ...depth, ...draft, ...locale }, ['collection', 'id']),
    },
    {
      name: 'count',
      description: 'Counts the documents of a collection that match a filter. Answers { totalDocs }.',
      inputSchema: object({ collection, where: { type: 'object', description: WHERE_HELP }, ...draft }, ['collection']),
    },
    {
      name: 'search',
      description:
        'Finds documents of a collection by words: through its full-text index where it has one (best match first; every word must match, the last as a prefix; "quoted phrases"), else in its title. Answers a page like find.',
      inputSchema: object(
        { collection, query: { type: 'string', description: 'Words to look for.' }, ...paging, ...draft, ...locale },
        ['collection', 'query'],
      ),
    },
    {
      name: 'create',
      description:
        'Creates a document. On drafts collections it is saved as a draft that nobody sees until someone publishes it. Answers { doc, message }.',
      inputSchema: object({ collection: writableCollection, data: dataOf('create'), ...locale }, [
        'collection',
        'data',
      ]),
    },
    {
      name: 'update',
      description:
        'Changes the given fields of a document; fields left out stay as they are. On drafts collections it saves a draft and the live document stays unchanged until published.',
      inputSchema: object({ collection: writableCollection, id, data: dataOf('update'), ...locale }, [
        'collection',
        'id',
        'data',
      ]),
    },
    {
      name: 'duplicate',
      description:
        'Copies a document into a new one, with the given fields changed in the copy; unique text gets " - Copy". On drafts collections the copy is a draft. Answers { doc, message }.',
      inputSchema: object({ collection: writableCollection, id, data: dataOf('update'), ...locale }, [
        'collection',
        'id',
      ]),
    },
    {
      name: 'delete',
      description:
        'Deletes a document (into the trash where the collection has one). Needs the mcp:publish permission, as does moving a document into or out of the trash with update.',
      inputSchema: object({ collection: writableCollection, id }, ['collection', 'id']),
    },
    {
      name: 'publish',
      description:
        'Publishes a document or global: its latest draft becomes the live version. Needs the mcp:publish permission.',
      inputSchema: object(target, []),
    },
    {
      name: 'unpublish',
      description: 'Takes a published document or global back to draft. Needs the mcp:publish permission.',
      inputSchema: object(target, []),
    },
    {
      name: 'schedule',
      description:
        'Schedules a publish or unpublish of a document or global at a future time. Needs the mcp:publish permission.',
      inputSchema: object(
        {
          ...target,
          action: { type: 'string', enum: ['publish', 'unpublish'] },
          at: { type: 'string', format: 'date-time', description: 'When, as an ISO 8601 time in the future.' },
        },
        ['action', 'at'],
      ),
    },
    {
      name: 'find_global',
      description: 'Reads a global (a single document such as site settings).',
      inputSchema: object({ global, ...depth, ...draft, ...locale }, ['global']),
    },
    {
      name: 'update_global',
      description: 'Changes the given fields of a global; on drafts globals it saves a draft.',
      inputSchema: object(
        {
          global,
          data: {
            type: 'object',
            description: 'The field values, per global as below.',
            anyOf: config.globals.map((g) => dataSchema(config, g, 'update')),
          },
          ...locale,
        },
        ['global', 'data'],
      ),
    },
    {
      name: 'upload',
      description: `Uploads a file into the media library (at most ${config.upload.maxFileSize} bytes; types ${config.upload.mimeTypes.join(', ')}). Answers the media document, whose id goes into upload fields. The file is given as base64; URLs are not fetched.`,
      inputSchema: object(
        {
          filename: { type: 'string', description: 'The file name, with its extension.' },
          data: { type: 'string', contentEncoding: 'base64', description: "The file's bytes, base64-encoded." },
          fields: { type: 'object', description: 'Other media fields, e.g. { "alt": "…" }.' },
        },
        ['filename', 'data'],
      ),
    },
  ];
  return defs;
}
