import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { executePrepared, executePreparedTemplate } from '../db/prepared-statements';
import {
  type ListingWindow,
  planFence,
  positionsOf,
  type Range,
  tupleOf,
  withArticleRows,
} from './listing-positions';
import {
  type PublishedArticle,
  type PublishedArticleRow,
  type PublishedArticleVersion,
  toPublishedArticle,
} from './published-article';
import { rowVersion } from './published-article-columns';
import { hasFilters } from './published-filters';
import {
  type Listing,
  type ListingOutline,
  type ListingPosition,
  listingAnchorStep,
} from './published-listing';

// A plain listing (no `q`): its outline, a page of its articles or of their versions, a count to a cursor, and
// a stream of every article, all in date order. Searches: published-search.repository.ts; which of the two a
// listing is: listing-source.ts.

/** The listing's size and every `listingAnchorStep`-th position, in one scan of its index. */
export async function findPlainOutline(db: DbOrTx, listing: Listing): Promise<ListingOutline> {
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
export async function findPlainArticlesPage(
  db: DbOrTx,
  listing: Listing,
  window: ListingWindow,
): Promise<PublishedArticle[]> {
  const query = withArticleRows(db, positionsOf(db, listing, { ...window, ordered: true }));
  const rows = hasFilters(listing) ? await query.execute() : await executePrepared(db, query);
  return rows.map((row) => toPublishedArticle(row as PublishedArticleRow));
}

/**
 * The ids and row versions of one page of a listing (the same window as {@link findPlainArticlesPage}),
 * newest first: a narrow read, for callers that keep article representations by version.
 */
export async function findPlainVersionsPage(
  db: DbOrTx,
  listing: Listing,
  window: ListingWindow,
): Promise<PublishedArticleVersion[]> {
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

/**
 * Every article of the listing, newest first, read in chunks of `chunkSize`: each chunk is its own short query
 * that continues after the last row of the one before (keyset), run only when the caller asks for more rows.
 * Memory stays flat however many there are, and a slow reader holds no connection, no statement (nothing
 * for the statement timeout to cut) and no snapshot (which would hold back the change feed's horizon) while
 * it is not reading. The chunks are not one snapshot: an article changed during the read appears as it was
 * when its chunk was read (the change feed, followed from a cursor taken before, brings it up to date).
 */
export async function* streamPlainArticles(
  db: DbOrTx,
  listing: Listing,
  chunkSize = 500,
): AsyncGenerator<PublishedArticle> {
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
