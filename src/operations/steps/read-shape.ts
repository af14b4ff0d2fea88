/**
 * Checks a read's `select` and `populate` (src/query/select.ts) against what the caller may query: the
 * same rights as `where` and `sort` (src/access/query-rights.ts), asked of the read collection and of
 * each collection named in `populate`.
 */
import { badRequest } from '../../errors.ts';
import type { Entity } from '../../config/types.ts';
import { queryRights } from '../../access/query-rights.ts';
import { checkSelection, parsePopulate, parseSelect, type ReadShape } from '../../query/select.ts';
import type { QueryRights } from '../../query/where.ts';
import { richTextFormatOf } from '../../richtext/convert-values.ts';
import type { OperationContext } from '../../operation-context.ts';

/** What every read operation takes, in Payload's form: `{ title: true }`, `{ users: { name: true } }` (query strings give 'true'). */
export type ShapeArgs = {
  select?: unknown;
  populate?: unknown;
  richText?: unknown;
  /** `false`, or per join field `{ limit, page, sort, where }` (src/query/join-options.ts). */
  joins?: unknown;
};

/**
 * The read's shape, parsed and checked; undefined when it asks for everything. `rights`: the caller's
 * rights on `entity` when the read has them already (a find matched with them), so its rules are asked once.
 */
export async function readShapeOf(
  ctx: OperationContext,
  entity: Entity,
  args: ShapeArgs,
  rights?: QueryRights,
): Promise<ReadShape | undefined> {
  const shape: ReadShape = {
    select: parseSelect(args.select),
    populate: parsePopulate(args.populate),
    richText: richTextFormatOf(args.richText),
  };
  if (!shape.select && !shape.populate) return shape.richText ? { richText: shape.richText } : undefined;
  await checkReadShape(ctx, entity, shape, rights);
  return shape;
}

async function checkReadShape(
  ctx: OperationContext,
  entity: Entity,
  shape: ReadShape,
  rights: QueryRights | undefined,
): Promise<void> {
  if (shape.select) checkSelection(entity, shape.select, rights ?? (await queryRights(ctx, entity)));
  for (const [slug, selection] of Object.entries(shape.populate ?? {})) {
    const related = ctx.cms.config.collectionsBySlug.get(slug);
    if (!related) throw badRequest(`Unknown collection "${slug}" in populate.`, 'populate');
    checkSelection(related, selection, await queryRights(ctx, related));
  }
}
