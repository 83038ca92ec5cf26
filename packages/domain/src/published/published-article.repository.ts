import { type ExpressionBuilder, sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { executePrepared, executePreparedTemplate } from '../db/prepared-statements';
import {
  type PublishedArticle,
  type PublishedArticleRow,
  type PublishedArticleVersion,
  toPublishedArticle,
} from './published-article';
import { publishedArticleColumns, rowVersion } from './published-article-columns';
import {
  articleFiltersOf,
  hasFilters,
  needsArticleRow,
  positionFiltersOf,
  published,
  yes,
} from './published-filters';
import {
  type Listing,
  type ListingOutline,
  type ListingPosition,
  listingAnchorStep,
} from './published-listing';
import {
  findSearchArticlesPage,
  findSearchOutline,
  findSearchVersionsPage,
  streamSearchArticles,
} from './published-search.repository';

/** `OFFSET 0` in a subquery: the planner cannot pull it up (see withArticleRows). A literal, never bound. */
const planFence = sql.lit(0);

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

interface Range {
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
function positionsOf(db: DbOrTx, listing: Listing, range: Range = {}) {
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

function tupleOf<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, position: ListingPosition | null) {
  const { publishedAt, id } = position as ListingPosition;
  return eb.tuple(eb.val(publishedAt), eb.val(id));
}

function selectPublishedArticle(db: DbOrTx) {
  return db.selectFrom('articles').select(publishedArticleColumns);
}

/** The listing's size and every `listingAnchorStep`-th position, in one scan of its index. */
export async function findListingOutline(db: DbOrTx, listing: Listing): Promise<ListingOutline> {
  // A search is ranked, not in listing order: no anchors; its capped size and its ranked part instead.
  if (listing.q) return findSearchOutline(db, listing);
  const numbered = db
    .selectFrom(positionsOf(db, listing))
    .select([
      'p.published_at',
      'p.id',
      sql<string>`row_number() over (order by p.published_at desc, p.id desc)`.as('rn'),
      sql<string>`count(*) over ()`.as('total'),
    ])
    .as('numbered');
  const rows = await db
    .selectFrom(numbered)
    .select(['numbered.published_at', 'numbered.id', 'numbered.total'])
    .where(sql<boolean>`(numbered.rn - 1) % ${sql.lit(listingAnchorStep)} = 0`)
    .orderBy('numbered.rn')
    .execute();
  return {
    total: Number(rows[0]?.total ?? 0),
    anchors: rows.map((row) => ({ publishedAt: row.published_at as Date, id: row.id })),
  };
}

/**
 * `limit` rows of the listing, newest first, starting `skip` rows after `from` (or after the start).
 * The skip runs over the narrow ordering index only; full rows are read for the page itself.
 * Unfiltered listings (the hot path) run as prepared statements with a generic plan: the LIMIT is a literal
 * (so the plan is costed for the real page size; at most 100 texts per listing shape) and the article rows
 * are fetched behind a planner fence, so no generic plan can turn into a join over the whole table.
 * Filtered listings are planned per execution: a generic plan cannot know how rare a tag is.
 */
export async function findPublishedArticlesPage(
  db: DbOrTx,
  listing: Listing,
  window: ListingWindow,
): Promise<PublishedArticle[]> {
  if (listing.q) return findSearchArticlesPage(db, listing, window);
  const query = withArticleRows(db, positionsOf(db, listing, { ...window, ordered: true }));
  const rows = hasFilters(listing) ? await query.execute() : await executePrepared(db, query);
  return rows.map((row) => toPublishedArticle(row as PublishedArticleRow));
}

/** One published article by slug, if it is visible in the scope (`siteId` null: any site). */
export async function findPublishedArticleBySlug(
  db: DbOrTx,
  siteId: string | null,
  slug: string,
): Promise<PublishedArticle | undefined> {
  let query = selectPublishedArticle(db)
    .where('articles.slug', '=', slug)
    .where('articles.status', '=', published);
  if (siteId !== null) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('article_sites')
          .select(sql.lit(1).as('one'))
          .whereRef('article_sites.article_id', '=', 'articles.id')
          .where('article_sites.site_id', '=', siteId),
      ),
    );
  }
  const [row] = await executePrepared(db, query);
  return row && toPublishedArticle(row as PublishedArticleRow);
}

/**
 * The ids and row versions of one page of a listing (the same window as {@link findPublishedArticlesPage}),
 * newest first: a narrow read, for callers that keep article representations by version.
 */
export async function findPublishedVersionsPage(
  db: DbOrTx,
  listing: Listing,
  window: ListingWindow,
): Promise<PublishedArticleVersion[]> {
  if (listing.q) return findSearchVersionsPage(db, listing, window);
  const build = (scope: Listing, range: Range) =>
    db
      .selectFrom(positionsOf(db, scope, { ...range, ordered: true }))
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('articles')
            .select(rowVersion.as('version'))
            .whereRef('articles.id', '=', 'p.id')
            .offset(planFence)
            .as('a'),
        (join) => join.onTrue(),
      )
      .select(['p.id', 'a.version', 'p.published_at as publishedAt'])
      .orderBy('p.published_at', 'desc')
      .orderBy('p.id', 'desc');
  if (hasFilters(listing)) return build(listing, window).execute();
  // The hottest query of the client API: built and compiled once per shape, only bound per request.
  const { siteId, aggregatedOnly } = listing;
  const { from, skip, limit, fromExclusive = false } = window;
  const shape = JSON.stringify([
    'versions-page',
    siteId !== null,
    aggregatedOnly,
    from !== null,
    fromExclusive,
    skip > 0,
    limit,
  ]);
  return executePreparedTemplate(
    db,
    shape,
    (param) =>
      build(
        { ...listing, siteId: siteId === null ? null : param('siteId') },
        {
          from: from && { publishedAt: param('publishedAt'), id: param('fromId') },
          fromExclusive,
          skip: skip > 0 ? param('skip') : 0,
          limit,
        },
      ),
    { siteId, publishedAt: from?.publishedAt, fromId: from?.id, skip },
  );
}

/**
 * How many rows of the listing sit at or before `position` in its order, counting from `anchor` (inclusive;
 * null: the start) and at most `listingAnchorStep`: with the outline's anchors, where a keyset cursor is.
 */
export async function countListingRowsThrough(
  db: DbOrTx,
  listing: Listing,
  anchor: ListingPosition | null,
  position: ListingPosition,
): Promise<number> {
  const positions = positionsOf(db, listing, { from: anchor, ordered: true, limit: listingAnchorStep });
  const row = await db
    .selectFrom(positions)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where((eb) => eb(eb.refTuple('p.published_at', 'p.id'), '>=', tupleOf(eb, position)))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The published articles among `ids` (any order), each with its row version. */
export async function findPublishedArticlesByIds(
  db: DbOrTx,
  ids: readonly string[],
): Promise<Array<{ article: PublishedArticle; version: string }>> {
  if (ids.length === 0) return [];
  const query = db
    .selectFrom('articles')
    .select([...publishedArticleColumns, rowVersion.as('version')])
    .where('articles.id', '=', (eb) => eb.fn.any(eb.val([...ids])))
    .where('articles.status', '=', published);
  const rows = await executePrepared(db, query);
  return rows.map((row) => ({
    article: toPublishedArticle(row as PublishedArticleRow),
    version: row.version,
  }));
}

/**
 * Every article of the listing, newest first, read in chunks of `chunkSize`: each chunk is its own short query
 * that continues after the last row of the one before (keyset), run only when the caller asks for more rows.
 * Memory stays flat however many there are, and a slow reader holds no connection, no statement (nothing
 * for the statement timeout to cut) and no snapshot (which would hold back the change feed's horizon) while
 * it is not reading. The chunks are not one snapshot: an article changed during the read appears as it was
 * when its chunk was read (the change feed, followed from a cursor taken before, brings it up to date).
 */
export async function* streamPublishedArticles(
  db: DbOrTx,
  listing: Listing,
  chunkSize = 500,
): AsyncGenerator<PublishedArticle> {
  if (listing.q) {
    yield* streamSearchArticles(db, listing, chunkSize);
    return;
  }
  let from: ListingPosition | null = null;
  for (;;) {
    // `from` is inclusive: the row it names was the last one served, so skip it.
    const range = { ordered: true, from, skip: from ? 1 : 0, limit: chunkSize };
    const rows = (await withArticleRows(
      db,
      positionsOf(db, listing, range),
    ).execute()) as PublishedArticleRow[];
    for (const row of rows) yield toPublishedArticle(row);
    const last = rows.at(-1);
    if (!last || rows.length < chunkSize) return;
    from = { publishedAt: last.published_at as Date, id: last.id };
  }
}

/**
 * The published-article columns of each position of `p`, in the listing order. The articles row is fetched in
 * a LATERAL subquery with OFFSET 0 (a planner fence): the plan walks the ordering index and fetches row by
 * row, whatever the estimates (no hash join or sort of the whole listing, even in a generic plan).
 */
function withArticleRows(db: DbOrTx, positions: ReturnType<typeof positionsOf>) {
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
