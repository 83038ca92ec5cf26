import { type Compilable, type Expression, type SqlBool, sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { executePrepared } from '../db/prepared-statements';
import {
  articleFiltersOf,
  hasFilters,
  positionFiltersOf,
  published,
  type SearchTest,
  yes,
} from './published-filters';
import type { Listing } from './published-listing';

// How a search finds its matches, newest first (published-search.repository.ts ranks and pages them).
//
// What a search costs is finding its newest matches. Two ways (bench:search, bench/RESULTS.md):
// - `index`: the GIN index finds every match, which are then sorted by date. Cost grows with the number of
//   matches (about 0.5 us each): cheap for rare words, 25+ ms for a word found in all 50,000 articles.
// - `row`: walk the scope newest first (its date index) and test each article until enough match. Each test
//   reads the article's whole vector (~4 KB, out of line: about 12 times one index match), so the cost grows
//   with the rows walked, wanted / share of articles matching: cheap for common words and phrases (the index
//   cannot check a phrase's word positions, so it rechecks every candidate's vector: ~1 s for a phrase of
//   the two commonest words), ruinous for rare ones.
// Postgres cannot choose between them: it does not cost reading a vector, and the query is computed in the
// statement (an InitPlan), so it has no word statistics. The choice is made here: the scope's newest
// `sampleSize` articles are tested first, and the cheaper way for the share that matched is taken, inside the
// statement that finds the matches (newestMatches) or read on its own (searchTestFor).

/** How many of the scope's newest articles are tested to choose the way to find matches. */
const sampleSize = 64;

/** Testing one row on the walk costs about this many index matches (bench:search, 50,000 articles). */
const rowTestCost = 12;

/**
 * Runs a search's query. Without other filters, as a named prepared statement: its plan does not depend on the
 * search words (the query is computed in the statement), so a generic plan is as good as a custom one and
 * saves parsing and planning (~0.3 ms a statement). With filters, planned per execution (a generic plan
 * cannot know how rare a tag is).
 */
export function runSearchQuery<O>(
  db: DbOrTx,
  listing: Listing,
  query: Compilable<O> & { execute(): Promise<O[]> },
) {
  return hasFilters({ ...listing, q: null }) ? query.execute() : executePrepared(db, query);
}

/**
 * The scope's published articles as `w(id, published_at, vector, hit)`, with `conditions` (on `a`, the
 * articles row) and `hit` (whether each row satisfies it, for the sample). Ordered newest first, the plan
 * walks a site's own date index (article_sites) and joins each article, or the articles' published index.
 */
function scopeRows(
  db: DbOrTx,
  listing: Listing,
  conditions: Expression<SqlBool>[],
  hit: Expression<SqlBool> = sql<SqlBool>`true`,
) {
  if (listing.siteId !== null) {
    const rows = db
      .selectFrom('article_sites as s')
      .innerJoin('articles as a', 'a.id', 's.article_id')
      .select([
        's.article_id as id',
        's.published_at as published_at',
        sql<string>`a.search_vector`.as('vector'),
        sql<boolean>`${hit}`.as('hit'),
      ])
      .where('s.site_id', '=', listing.siteId)
      .where('s.published_at', 'is not', null)
      .where('a.status', '=', published)
      .$if(listing.aggregatedOnly, (query) => query.where('s.is_aggregated', '=', yes))
      .$if(conditions.length > 0, (query) => query.where((eb) => eb.and(conditions)));
    return db.selectFrom(rows.as('w')).selectAll('w');
  }
  const rows = db
    .selectFrom('articles as a')
    .select([
      'a.id as id',
      'a.published_at as published_at',
      sql<string>`a.search_vector`.as('vector'),
      sql<boolean>`${hit}`.as('hit'),
    ])
    .where('a.status', '=', published)
    .$if(listing.aggregatedOnly, (query) => query.where('a.is_aggregated', '=', yes))
    .$if(conditions.length > 0, (query) => query.where((eb) => eb.and(conditions)));
  return db.selectFrom(rows.as('w')).selectAll('w');
}

/**
 * Every filter of the listing (search included, written as `test`) on the articles row `a`; a site's date
 * bounds on `s` (article_sites, the index a site walks).
 */
const conditionsOf = (listing: Listing, test: SearchTest) => [
  ...articleFiltersOf(listing, test),
  ...positionFiltersOf(listing, listing.siteId !== null && test === 'row' ? 's' : 'a'),
];

/**
 * Whether walking the scope's newest articles (`row`) should find the newest `wanted` matches for less than
 * the index, judged from how many of the scope's newest `sampleSize` articles match: a one-row query of
 * `walk` (boolean), for a statement to choose its way by (see newestMatches).
 */
function walkChoice(db: DbOrTx, listing: Listing, wanted: number) {
  const hit = sql<SqlBool>`${sql.join(conditionsOf(listing, 'row'), sql` and `)}`;
  const sample = scopeRows(db, listing, [], hit)
    .orderBy('w.published_at', 'desc')
    .orderBy('w.id', 'desc')
    .limit(sql.lit(sampleSize))
    .as('sample');
  const counted = db
    .selectFrom(sample)
    .select([
      sql<number>`count(*)::float8`.as('seen'),
      sql<number>`(count(*) filter (where sample.hit))::float8`.as('hits'),
      // The planner's estimate of the table's rows (-1 before the first ANALYZE): the index's work is in
      // proportion to the whole network's matches, whatever the scope.
      sql<number>`(select reltuples from pg_class where oid = 'articles'::regclass)`.as('articles'),
    ])
    .as('c');
  // A scope smaller than the sample: walking all of it costs less than the sample did. No hit: the index.
  // Otherwise the walk tests about wanted / share rows, the index finds share x articles matches.
  return db.selectFrom(counted).select(
    sql<boolean>`case
      when c.seen < ${sql.lit(sampleSize)} then true
      when c.hits = 0 then false
      else ${sql.lit(wanted)} * c.seen / c.hits * ${sql.lit(rowTestCost)}
        < c.hits / c.seen * greatest(c.articles, c.seen)
    end`.as('walk'),
  );
}

/** How to find the newest `wanted` matches (walkChoice's answer, read on its own). */
export async function searchTestFor(db: DbOrTx, listing: Listing, wanted: number): Promise<SearchTest> {
  const [row] = await runSearchQuery(db, listing, walkChoice(db, listing, wanted));
  if (!row) throw new Error('a count answers one row');
  return row.walk ? 'row' : 'index';
}

/**
 * The scope's newest `wanted` matches as `w(id, published_at, vector)`, newest first. With `test`, found that
 * way; without, the statement chooses: walkChoice runs first (a CTE) and gates the two ways, so only the
 * chosen one runs (a one-time filter) and the choice costs no round trip of its own.
 */
export function newestMatches(db: DbOrTx, listing: Listing, wanted: number, test?: SearchTest) {
  const newest = (way: SearchTest) => matchesByDate(db, listing, way).limit(sql.lit(wanted));
  if (test) return db.selectFrom(newest(test).as('w')).select(['w.id', 'w.published_at', 'w.vector']);
  const gated = (way: SearchTest) =>
    db
      .selectFrom(newest(way).as('m'))
      .select(['m.id', 'm.published_at', 'm.vector'])
      .where(sql<SqlBool>`${way === 'row' ? sql`` : sql`not `}(select walk from choice)`);
  return db
    .with('choice', () => walkChoice(db, listing, wanted))
    .selectFrom(gated('row').unionAll(gated('index')).as('w'))
    .select(['w.id', 'w.published_at', 'w.vector']);
}

/** The scope's matches as `w(id, published_at, vector)`, newest first, found as `test` says. */
export function matchesByDate(db: DbOrTx, listing: Listing, test: SearchTest) {
  // `row`: the planner walks the date index and, under a LIMIT, stops as soon as enough rows match.
  // `index`: every match from the GIN index, then sorted (OFFSET 0: the ORDER BY and LIMIT above cannot
  // turn it into a walk).
  const matches =
    test === 'row'
      ? scopeRows(db, listing, conditionsOf(listing, 'row'))
      : db.selectFrom(indexMatches(db, listing).offset(sql.lit(0)).as('w')).selectAll('w');
  return matches.orderBy('w.published_at', 'desc').orderBy('w.id', 'desc');
}

/** The scope's matches found through the GIN index, unordered (a site: an EXISTS on article_sites). */
function indexMatches(db: DbOrTx, listing: Listing) {
  return db
    .selectFrom('articles as a')
    .select([
      'a.id as id',
      'a.published_at as published_at',
      sql<string>`a.search_vector`.as('vector'),
      sql<boolean>`true`.as('hit'),
    ])
    .where('a.status', '=', published)
    .where((eb) => eb.and(conditionsOf(listing, 'index')))
    .$if(listing.aggregatedOnly, (query) => query.where('a.is_aggregated', '=', yes))
    .$if(listing.siteId !== null, (query) =>
      query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('article_sites as s')
            .select(sql.lit(1).as('one'))
            .whereRef('s.article_id', '=', 'a.id')
            .where('s.site_id', '=', listing.siteId as string),
        ),
      ),
    );
}
