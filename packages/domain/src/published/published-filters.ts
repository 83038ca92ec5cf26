import { type Expression, type SqlBool, sql } from 'kysely';
import type { ArticleStatus } from '../db/tables';
import { type Listing, tagSlugsOf } from './published-listing';

// Partial-index predicates are written as literals (sql.lit), never as bind parameters:
// a generic plan cannot match a parameter against an index's WHERE clause.
export const published = sql.lit<ArticleStatus>('published');
export const yes = sql.lit(true);
const no = sql.lit(false);

/** Whether a filter needs the articles row (tags, category, section, source, search). */
export function needsArticleRow(listing: Listing): boolean {
  return (
    listing.tag !== null ||
    listing.category !== null ||
    listing.section !== null ||
    (listing.source ?? null) !== null ||
    (listing.author ?? null) !== null ||
    (listing.q ?? null) !== null
  );
}

/**
 * Whether the listing has any filter. Unfiltered listings (the hot path) run as prepared statements with a
 * generic plan; filtered ones are planned per execution (a generic plan cannot know how rare a tag is).
 */
export function hasFilters(listing: Listing): boolean {
  return (
    needsArticleRow(listing) ||
    (listing.aggregated ?? null) !== null ||
    (listing.publishedAfter ?? null) !== null ||
    (listing.publishedBefore ?? null) !== null
  );
}

/**
 * The search query of `q`, in the language the stored vectors use (search_settings, one row). A scalar
 * subquery: Postgres computes it once per statement (an InitPlan), not once per row it tests.
 */
export const searchQueryOf = (q: string) =>
  sql`(select websearch_to_tsquery(language, ${q}) from search_settings)`;

/**
 * How a search condition is written: `index` as `search_vector @@ query`, which the GIN index serves;
 * `row` as the same test in function form, which no index matches, so the plan tests rows in the order it
 * walks them (see search-matches.ts).
 */
export type SearchTest = 'index' | 'row';

/** Whether the article `a` matches the search `q` (see SearchTest). */
export const searchMatchOf = (q: string, test: SearchTest = 'index') =>
  test === 'index'
    ? sql<SqlBool>`a.search_vector @@ ${searchQueryOf(q)}`
    : sql<SqlBool>`ts_match_vq(a.search_vector, ${searchQueryOf(q)})`;

/**
 * Conditions on the articles row, aliased `a`. Each repeats the expression of its index literally:
 * `label_slugs(a.tags)` (GIN articles_tag_slugs_idx), `a.search_vector` (GIN articles_search_idx).
 */
export function articleFiltersOf(listing: Listing, search: SearchTest = 'index'): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  const slugs = tagSlugsOf(listing.tag);
  if (slugs.length > 0) conditions.push(sql<SqlBool>`label_slugs(a.tags) && ${slugs}::text[]`);
  if (listing.category !== null)
    conditions.push(sql<SqlBool>`lower(a.category) = lower(${listing.category})`);
  if (listing.section !== null) conditions.push(sql<SqlBool>`lower(a.section) = lower(${listing.section})`);
  if (listing.source) {
    conditions.push(sql<SqlBool>`a.is_aggregated = ${yes} and label_slug(a.source) = ${listing.source}`);
  }
  // byline_slugs(a.bylines): GIN articles_byline_slugs_idx (migration 2026-11-28T0700).
  if (listing.author)
    conditions.push(sql<SqlBool>`byline_slugs(a.bylines) && array[${listing.author}]::text[]`);
  if (listing.q) conditions.push(searchMatchOf(listing.q, search));
  return conditions;
}

/**
 * Conditions on a listing position's own columns (published_at, is_aggregated), which article_sites copies:
 * `table` is the alias holding them (`s` for article_sites, `a` for articles).
 */
export function positionFiltersOf(listing: Listing, table: 's' | 'a'): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  const publishedAt = sql.ref(`${table}.published_at`);
  const aggregated = sql.ref(`${table}.is_aggregated`);
  // (aggregatedOnly is the listing's own scope: positionsOf applies it, as before filters existed.)
  if (listing.aggregated === true) conditions.push(sql<SqlBool>`${aggregated} = ${yes}`);
  if (listing.aggregated === false) conditions.push(sql<SqlBool>`${aggregated} = ${no}`);
  if (listing.publishedAfter) conditions.push(sql<SqlBool>`${publishedAt} >= ${listing.publishedAfter}`);
  if (listing.publishedBefore) conditions.push(sql<SqlBool>`${publishedAt} < ${listing.publishedBefore}`);
  return conditions;
}
