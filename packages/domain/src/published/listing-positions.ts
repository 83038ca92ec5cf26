import { type ExpressionBuilder, sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { publishedArticleColumns } from './published-article-columns';
import { articleFiltersOf, needsArticleRow, positionFiltersOf, published, yes } from './published-filters';
import type { Listing, ListingPosition } from './published-listing';

// The SQL pieces of a plain listing (no search): its positions in date order, and the article rows behind them.

/** `OFFSET 0` in a subquery: the planner cannot pull it up (see withArticleRows). A literal, never bound. */
export const planFence = sql.lit(0);

/** Where a page starts (an anchor and a skip) and its size; a search's also carries its ranked ids. */
export interface ListingWindow {
  from: ListingPosition | null;
  skip: number;
  limit: number;
  /** A search only: the ids of its ranked part (ListingOutline.ranked). */
  ranked?: readonly string[];
  /** Start just after `from` (a keyset cursor: the row it names may have gone since it was handed out). */
  fromExclusive?: boolean;
}

export interface Range {
  /** Start at this position (inclusive, unless fromExclusive). */
  from?: ListingPosition | null;
  fromExclusive?: boolean;
  ordered?: boolean;
  /** Rows to skip; 0 adds no OFFSET (a template passes its param() here, so the test is `!== 0`, not `> 0`). */
  skip?: number;
  limit?: number;
}

/**
 * The listing's rows as (published_at, id), as subquery `p`.
 * A site listing reads only article_sites (its copies of published_at/is_aggregated are kept by
 * triggers) through a (site_id, published_at desc, article_id desc) index; the network listing reads
 * the articles table's own published index. Filters need the articles row and join it.
 */
export function positionsOf(db: DbOrTx, listing: Listing, range: Range = {}) {
  const { from = null, fromExclusive = false, ordered = false, skip = 0, limit } = range;
  const seek = fromExclusive ? '<' : '<=';
  if (listing.siteId !== null) {
    const positionFilters = positionFiltersOf(listing, 's');
    return db
      .selectFrom('article_sites as s')
      .select(['s.published_at as published_at', 's.article_id as id'])
      .where('s.site_id', '=', listing.siteId)
      .where('s.published_at', 'is not', null)
      .$if(listing.aggregatedOnly, (q) => q.where('s.is_aggregated', '=', yes))
      .$if(from !== null, (q) =>
        q.where((eb) => eb(eb.refTuple('s.published_at', 's.article_id'), seek, tupleOf(eb, from))),
      )
      .$if(positionFilters.length > 0, (q) => q.where((eb) => eb.and(positionFilters)))
      .$if(needsArticleRow(listing), (q) =>
        q
          .innerJoin('articles as a', 'a.id', 's.article_id')
          .where('a.status', '=', published)
          .where((eb) => eb.and(articleFiltersOf(listing))),
      )
      .$if(ordered, (q) => q.orderBy('s.published_at', 'desc').orderBy('s.article_id', 'desc'))
      .$if(skip !== 0, (q) => q.offset(skip))
      .$if(limit !== undefined, (q) => q.limit(sql.lit(limit as number)))
      .as('p');
  }
  return db
    .selectFrom('articles as a')
    .select(['a.published_at as published_at', 'a.id as id'])
    .where('a.status', '=', published)
    .where((eb) => eb.and([...articleFiltersOf(listing), ...positionFiltersOf(listing, 'a')]))
    .$if(listing.aggregatedOnly, (q) => q.where('a.is_aggregated', '=', yes))
    .$if(from !== null, (q) =>
      q.where((eb) => eb(eb.refTuple('a.published_at', 'a.id'), seek, tupleOf(eb, from))),
    )
    .$if(ordered, (q) => q.orderBy('a.published_at', 'desc').orderBy('a.id', 'desc'))
    .$if(skip !== 0, (q) => q.offset(skip))
    .$if(limit !== undefined, (q) => q.limit(sql.lit(limit as number)))
    .as('p');
}

export function tupleOf<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  position: ListingPosition | null,
) {
  const { publishedAt, id } = position as ListingPosition;
  return eb.tuple(eb.val(publishedAt), eb.val(id));
}

/**
 * The published-article columns of each position of `p`, in the listing order. The articles row is fetched in
 * a LATERAL subquery with OFFSET 0 (a planner fence): the plan walks the ordering index and fetches row by
 * row, whatever the estimates (no hash join or sort of the whole listing, even in a generic plan).
 */
export function withArticleRows(db: DbOrTx, positions: ReturnType<typeof positionsOf>) {
  return db
    .selectFrom(positions)
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('articles')
          .select(publishedArticleColumns)
          .whereRef('articles.id', '=', 'p.id')
          .offset(planFence)
          .as('a'),
      (join) => join.onTrue(),
    )
    .selectAll('a')
    .orderBy('p.published_at', 'desc')
    .orderBy('p.id', 'desc');
}
