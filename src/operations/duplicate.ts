/**
 * Duplicates a document (Payload's duplicate): the caller must be able to read the original and create
 * in its collection; the copy is made by the create operation from the original's stored values in the
 * request's locale, with `data` merged over them. Unique text fields get " - Copy" so the copy can be
 * saved; on a drafts collection the copy starts as a draft. Accounts, API keys and upload collections are
 * refused (config/duplicable.ts). REST (`POST /:collection/:id/duplicate`), GraphQL, MCP, the Local API and the
 * client all call this one.
 */
import { isDuplicable } from '../config/duplicable.ts';
import { badRequest } from '../errors.ts';
import type { SanitizedField } from '../config/types.ts';
import { getCollection } from './steps/entities.ts';
import { findByID } from './find-by-id.ts';
import { create } from './create.ts';
import type { OperationContext } from '../operation-context.ts';

export type DuplicateArgs = { collection: string; id: number | string; data?: unknown; depth?: number };

const SYSTEM = new Set(['id', 'createdAt', 'updatedAt', 'status', '_status']);

export async function duplicate(ctx: OperationContext, args: DuplicateArgs): Promise<Record<string, unknown>> {
  const collection = getCollection(ctx.cms, args.collection);
  if (!isDuplicable(collection)) throw badRequest(`Documents of "${collection.slug}" cannot be duplicated.`);
  const overrides = args.data;
  if (overrides !== undefined && (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)))
    throw badRequest('The values to change in the copy must be a JSON object.');
  const original = await findByID(ctx, { collection: collection.slug, id: args.id, depth: 0, draft: true });
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(original)) if (!SYSTEM.has(key)) data[key] = value;
  for (const field of collection.fields) copyUnique(field, data);
  return create(ctx, {
    collection: collection.slug,
    data: { ...data, ...(overrides as Record<string, unknown> | undefined) },
    depth: args.depth,
    draft: collection.drafts,
  });
}

function copyUnique(field: SanitizedField, data: Record<string, unknown>): void {
  if (field.unique && typeof data[field.name] === 'string' && data[field.name] !== '')
    data[field.name] = `${data[field.name]} - Copy`;
}
