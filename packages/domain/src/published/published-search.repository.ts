import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { executePrepared } from '../db/prepared-statements';
import {
  type PublishedArticle,
  type PublishedArticleRow,
  type PublishedArticleVersion,
  toPublishedArticle,
} from './published-article';
import { publishedArticleColumns, rowVersion } from './published-article-columns';
import { published, type SearchTest, searchQueryOf } from './published-filters';
import type { Listing, ListingOutline, ListingPosition } from './published-listing';
import { matchesByDate, newestMatches, runSearchQuery, searchTestFor } from './search-matches';

export type { SearchTest } from './published-filters';

// Full-text search (a listing with `q`): the matching published articles of the scope. Order: the newest
// `rankedMatches` matches best match first (ts_rank over the stored search_vector: title weight A, body B;
// ties newest first), then every older match, newest first. The total counts matches up to `searchCountCap`
// only; past it, it is a lower bound (the service counts further for pages that reach it). How the matches
// are found: search-matches.ts. Ranking reads each ranked article's vector again, so only the newest `rankedMatches` are ranked.

/** How many of the newest matches are ranked; older matches follow in date order. */
export const rankedMatches = 500;

/**
 * How many matches a search counts: past it the total is a lower bound (Elasticsearch's track_total_hits).
 * Equal to rankedMatches, so the one query that finds the matches to rank also counts them: counting an
 * exact 50,000 costs 25+ ms, finding 501 by walking the newest articles ~3 ms.
 */
export const searchCountCap = rankedMatches;

interface SearchWindow {
  /** Searches have no anchors (their order is not the listing order): always null. */
  from: ListingPosition | null;
  skip: number;
  limit?: number;
  /** The ids of the ranked part (the outline's `ranked`), if known. */
  ranked?: readonly string[];
}

/**
 * A search's outline: its total (counted up to searchCountCap) and its ranked part, the newest
 * `rankedMatches` matches best first, in one query. `test`: how to find the matches (default: the cheaper
 * way for this search); either way gives the same outline.
 */
export async function findSearchOutline(
  db: DbOrTx,
  listing: Listing,
  test?: SearchTest,
): Promise<ListingOutline> {
  const newest = newestMatches(db, listing, searchCountCap + 1, test).as('h');
  const numbered = db
    .selectFrom(newest)
    .select([
      'h.id',
      'h.published_at',
      'h.vector',
      sql<string>`row_number() over (order by h.published_at desc, h.id desc)`.as('n'),
      sql<string>`count(*) over ()`.as('total'),
    ])
    .as('numbered');
  const rank = sql`case when numbered.n <= ${sql.lit(rankedMatches)}
    then ts_rank(numbered.vector::tsvector, ${searchQueryOf(listing.q as string)}) end`;
  const rows = await runSearchQuery(
    db,
    listing,
    db
      .selectFrom(numbered)
      .select(['numbered.id', 'numbered.total'])
      .orderBy(rank, (order) => order.desc().nullsLast())
      .orderBy('numbered.published_at', 'desc')
      .orderBy('numbered.id', 'desc')
      .limit(sql.lit(rankedMatches)),
  );
  const total = Number(rows[0]?.total ?? 0);
  return {
    total: Math.min(total, searchCountCap),
    anchors: [],
    totalIsLowerBound: total > searchCountCap,
    ranked: rows.map((row) => row.id),
  };
}

/** How many published articles of the scope match, counting no further than `upTo` (`test`: as above). */
export async function countSearchMatches(
  db: DbOrTx,
  listing: Listing,
  upTo: number,
  test?: SearchTest,
): Promise<number> {
  const matches = matchesByDate(db, listing, test ?? (await searchTestFor(db, listing, upTo)))
    .limit(upTo)
    .as('m');
  const row = await db
    .selectFrom(matches)
    .select(sql<string>`count(*)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** The ids of one window of a search, in search order: the ranked part, then the date-ordered rest. */
async function windowIds(db: DbOrTx, listing: Listing, window: SearchWindow): Promise<string[]> {
  const { skip, limit } = window;
  const end = limit === undefined ? Number.POSITIVE_INFINITY : skip + limit;
  let ids: string[] = [];
  if (skip < rankedMatches) {
    const ranked = window.ranked ?? (await findSearchOutline(db, listing)).ranked ?? [];
    ids = ranked.slice(skip, Math.min(end, rankedMatches));
  }
  if (end > rankedMatches) {
    // Past the ranked part, search order is date order: the first `rankedMatches` by date are the ranked ones.
    const from = Math.max(skip, rankedMatches);
    const test = limit === undefined ? 'index' : await searchTestFor(db, listing, end);
    const rest = await matchesByDate(db, listing, test)
      .offset(from)
      .$if(limit !== undefined, (query) => query.limit(end - from))
      .execute();
    ids.push(...rest.map((row) => row.id));
  }
  return ids;
}

const inOrder = <T extends { id: string }>(ids: readonly string[], rows: readonly T[]): T[] => {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
};

/** Ids and row versions of one page of a search, in search order. */
export async function findSearchVersionsPage(
  db: DbOrTx,
  listing: Listing,
  window: SearchWindow,
): Promise<PublishedArticleVersion[]> {
  const ids = await windowIds(db, listing, window);
  if (ids.length === 0) return [];
  const query = db
    .selectFrom('articles')
    .select(['articles.id', rowVersion.as('version')])
    .where('articles.id', '=', (eb) => eb.fn.any(eb.val(ids)))
    .where('articles.status', '=', published);
  return inOrder(ids, await executePrepared(db, query));
}

/** One page of a search, in search order. */
export async function findSearchArticlesPage(
  db: DbOrTx,
  listing: Listing,
  window: SearchWindow,
): Promise<PublishedArticle[]> {
  const ids = await windowIds(db, listing, window);
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('articles')
    .select(publishedArticleColumns)
    .where('articles.id', '=', (eb) => eb.fn.any(eb.val(ids)))
    .where('articles.status', '=', published)
    .execute();
  return inOrder(ids, rows).map((row) => toPublishedArticle(row as PublishedArticleRow));
}

/** Every match in search order: the ranked part read at once, the rest through a server-side cursor. */
export async function* streamSearchArticles(
  db: DbOrTx,
  listing: Listing,
  chunkSize: number,
): AsyncGenerator<PublishedArticle> {
  yield* await findSearchArticlesPage(db, listing, { from: null, skip: 0, limit: rankedMatches });
  const rest = db
    .selectFrom(matchesByDate(db, listing, 'index').offset(rankedMatches).as('r'))
    .innerJoin('articles', 'articles.id', 'r.id')
    .select(publishedArticleColumns)
    .orderBy('r.published_at', 'desc')
    .orderBy('r.id', 'desc');
  for await (const row of rest.stream(chunkSize)) yield toPublishedArticle(row as PublishedArticleRow);
}
