/**
 * `GET /search?q=…&collections=a,b&limit`: the best matches across searchable collections, each as
 * `{ collection, id, title, snippet, rank }`. Each collection is searched exactly as its list would be for
 * this caller (read filter, field access, drafts); a collection the caller may not read adds nothing.
 */
import { APIError, badRequest } from '../errors.ts';
import type { SanitizedCollection } from '../config/types.ts';
import { selectRows } from '../db/documents.ts';
import { andParts } from '../db/store.ts';
import { rowToDoc } from '../fields/row.ts';
import { checkPaging } from '../query/page-info.ts';
import { matchDocuments } from './find.ts';
import { presentDocs } from './steps/present.ts';
import type { OperationContext } from '../operation-context.ts';
import { rankedPage, searchLocale } from '../search/ranked-matches.ts';
import { parseTerms, type Term } from '../search/terms.ts';
import { textsOf } from '../search/search-index.ts';
import { snippetOf } from '../search/snippet.ts';

export type SearchHit = { collection: string; id: number; title: string; snippet: string; rank: number };
export type SearchArgs = { q: unknown; collections?: unknown; limit?: number; draft?: boolean };

function collectionsOf(ctx: OperationContext, names: unknown): SanitizedCollection[] {
  const all = ctx.cms.config.collections.filter((c) => c.search);
  if (names === undefined || names === '') return all;
  const list = (Array.isArray(names) ? names.join(',') : String(names))
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (list.length > 100) throw badRequest('Too many collections.', 'collections');
  return list.map((slug) => {
    const collection = ctx.cms.config.collectionsBySlug.get(slug);
    if (!collection) throw badRequest(`Unknown collection "${slug.slice(0, 100)}".`, 'collections');
    if (!collection.search)
      throw badRequest(`The collection "${slug}" is not searchable (it has no search option).`, 'collections');
    return collection;
  });
}

/** The best `limit` hits of one collection (only those get a snippet), and how many match in all. */
async function hitsIn(
  ctx: OperationContext,
  collection: SanitizedCollection,
  terms: Term[],
  draft: boolean,
  limit: number,
): Promise<{ hits: SearchHit[]; total: number }> {
  let matched: Awaited<ReturnType<typeof matchDocuments>>;
  try {
    matched = await matchDocuments(ctx, collection, { draft });
  } catch (error) {
    // A collection this caller may not read adds nothing to a search across collections.
    if (error instanceof APIError && (error.status === 401 || error.status === 403)) return { hits: [], total: 0 };
    throw error;
  }
  const { ranked, total } = await rankedPage(ctx, collection, terms, matched, limit, 0);
  if (!ranked.length) return { hits: [], total };
  const { store } = ctx.cms;
  const rows = await selectRows(
    store,
    collection,
    andParts([
      matched.where,
      store.dialect.inList(
        '"id"',
        ranked.map((r) => r.docId),
      ),
    ]),
    '"id"',
    null,
    0,
    matched.from,
  );
  const docs = await presentDocs(
    ctx,
    collection,
    rows.map((r) => rowToDoc(collection, r)),
    0,
  );
  const score = new Map(ranked.map((r) => [r.docId, r.score]));
  const titleField = collection.admin?.useAsTitle;
  const locale = searchLocale(ctx);
  const hits = docs.map((doc) => {
    const texts = textsOf(ctx.cms, collection, doc, locale);
    const title =
      titleField && typeof doc[titleField] === 'string'
        ? (doc[titleField] as string)
        : (texts.find((t) => t.trim())?.split('\n')[0] ?? String(doc.id));
    return {
      collection: collection.slug,
      id: doc.id as number,
      title,
      snippet: snippetOf(texts, terms),
      rank: score.get(doc.id as number) ?? 0,
    };
  });
  return { hits, total };
}

export async function searchEverywhere(
  ctx: OperationContext,
  args: SearchArgs,
): Promise<{ docs: SearchHit[]; totalDocs: number }> {
  const terms = parseTerms(args.q, 'q');
  const limit = args.limit ?? 10;
  checkPaging(limit, 1);
  const hits: SearchHit[] = [];
  let totalDocs = 0;
  for (const collection of collectionsOf(ctx, args.collections)) {
    const found = await hitsIn(ctx, collection, terms, Boolean(args.draft), limit);
    hits.push(...found.hits);
    totalDocs += found.total;
  }
  hits.sort((a, b) => b.rank - a.rank || a.collection.localeCompare(b.collection) || a.id - b.id);
  return { docs: hits.slice(0, limit), totalDocs };
}
