/**
 * Related documents by id, as a relationship shows them: one statement per collection, under the
 * reader's read access (a document it may not read, or a collection it may not read at all, is absent
 * from the answer, so the relationship reads `null`), presented at `depth`. GraphQL's per-request loader
 * reads through here, with the same read REST's population makes (populate.ts `readRelated`), so a
 * populated REST document and a GraphQL relationship never differ. `joins: false` leaves join fields out
 * (GraphQL reads them only when selected).
 */
import type { SanitizedCollection } from '../config/types.ts';
import type { JoinRequest } from '../query/join-options.ts';
import type { OperationContext } from '../operation-context.ts';
import { presentDocs } from './steps/present.ts';
import { readRelated } from './steps/populate.ts';

type Doc = Record<string, unknown>;

export async function findRelated(
  ctx: OperationContext,
  related: SanitizedCollection,
  ids: number[],
  depth: number,
  joins: JoinRequest = {},
): Promise<Map<number, Doc>> {
  const found = await readRelated(ctx, related, [...new Set(ids)]);
  if (!found) return new Map();
  const presented = await presentDocs(ctx, related, found.rows, depth, undefined, joins);
  return new Map(presented.map((d) => [d.id as number, d]));
}
