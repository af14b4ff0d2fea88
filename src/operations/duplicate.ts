/**
 * Duplicates a document (Payload's duplicate): the caller must be able to read the original and create
 * in its collection; the copy is made by the create operation from the original's stored values in the
 * request's locale, with `data` merged over them. Unique text fields get " - Copy" so the copy can be
 * saved; on a drafts collection the copy starts as a draft. Upload collections are refused: a copy would
 * share the stored file.
 */
import { isUploadCollection } from '../config/upload-collections.ts';
import { badRequest } from '../errors.ts';
import type { SanitizedField } from '../config/types.ts';
import { getCollection } from './entities.ts';
import { findByID } from './find-by-id.ts';
import { create } from './create.ts';
import type { OperationContext } from '../operation-context.ts';

export type DuplicateArgs = { collection: string; id: number | string; data?: Record<string, unknown>; depth?: number };

const SYSTEM = new Set(['id', 'createdAt', 'updatedAt', 'status', '_status']);

export async function duplicate(ctx: OperationContext, args: DuplicateArgs): Promise<Record<string, unknown>> {
  const collection = getCollection(ctx.cms, args.collection);
  if (isUploadCollection(collection) || collection.builtIn === 'users' || collection.builtIn === 'api-keys') {
    throw badRequest(`Documents of "${collection.slug}" cannot be duplicated.`);
  }
  const original = await findByID(ctx, { collection: collection.slug, id: args.id, depth: 0, draft: true });
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(original)) if (!SYSTEM.has(key)) data[key] = value;
  for (const field of collection.fields) copyUnique(field, data);
  return create(ctx, {
    collection: collection.slug,
    data: { ...data, ...args.data },
    depth: args.depth,
    draft: collection.drafts,
  });
}

function copyUnique(field: SanitizedField, data: Record<string, unknown>): void {
  if (field.unique && typeof data[field.name] === 'string' && data[field.name] !== '')
    data[field.name] = `${data[field.name]} - Copy`;
}
