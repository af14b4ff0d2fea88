/**
 * How many related documents one request may still populate (config `maxPopulatedDocuments`, docs/config.md):
 * REST `depth` and `joins` and GraphQL's relationships and joins all draw on the request's one budget, counted
 * as the answer holds them (a document shown in ten places counts ten times). Past it the request is refused
 * whole with a 400, never answered in part. Contexts without a budget (the Local API, jobs) are not bounded.
 */
import { APIError } from '../../errors.ts';
import type { DocumentBudget, OperationContext } from '../../operation-context.ts';

export const documentBudget = (limit: number): DocumentBudget => ({ limit, used: 0 });

export const overBudget = (ctx: OperationContext) => Boolean(ctx.documents && ctx.documents.used > ctx.documents.limit);

export const budgetError = (limit: number) =>
  new APIError(
    400,
    `This request would populate more than ${limit} related documents: ask for a lower depth, fewer joined documents or a smaller limit.`,
  );

/** Counts `count` more populated documents; throws the 400 once the request passes its budget. */
export function spendDocuments(ctx: OperationContext, count: number): void {
  const budget = ctx.documents;
  if (!budget || count <= 0) return;
  budget.used += count;
  if (budget.used > budget.limit) throw budgetError(budget.limit);
}

/**
 * An anonymous list (a whole list, `pagination: false`, or a GraphQL page over REST's 100) holds at most
 * as many documents as the request may populate: past it, a 400 once the matches are counted, before any
 * row is read. Signed-in callers (an export script, a check of every document) and contexts without a
 * budget are not bounded by it.
 */
export function checkListSize(ctx: OperationContext, documents: number): void {
  const budget = ctx.documents;
  if (budget && !ctx.user && documents > budget.limit)
    throw new APIError(
      400,
      `This list would answer ${documents} documents, more than ${budget.limit}: ask for smaller pages (limit and page).`,
    );
}

/** For readers that stop quietly and report once at the end (GraphQL): false once the budget is spent. */
export function trySpendDocuments(ctx: OperationContext, count: number): boolean {
  if (overBudget(ctx)) return false;
  try {
    spendDocuments(ctx, count);
    return true;
  } catch {
    return false;
  }
}
