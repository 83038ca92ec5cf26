import { labelSlug } from './label-slug';

/**
 * Which published articles a listing shows: a scope (one site, or the whole network) and optional filters.
 * Order is newest first: publishedAt desc, then id desc (a search: best match first, see `q`).
 */
export interface Listing {
  /** null: every site (the network key); otherwise only articles hosted on this site. */
  siteId: string | null;
  /** Only articles imported from feeds (partner articles). */
  aggregatedOnly: boolean;
  /** One tag or a comma-separated list: articles with any of them, compared by slug (see labelSlug). */
  tag: string | null;
  /** Compared case-insensitively. */
  category: string | null;
  /** Compared case-insensitively. */
  section: string | null;
  /** The slug (labelSlug) of the publisher's name: only articles imported from that publisher. */
  source?: string | null;
  /** The slug (labelSlug) of a byline name: only articles with that author (issue 32). */
  author?: string | null;
  /** true: only imported articles; false: only manual ones. */
  aggregated?: boolean | null;
  /** Only articles published at or after this instant. */
  publishedAfter?: Date | null;
  /** Only articles published before this instant. */
  publishedBefore?: Date | null;
  /**
   * Full-text search (websearch_to_tsquery syntax) over title and body: the listing holds the matching articles,
   * best match first (then newest first) instead of newest first.
   */
  q?: string | null;
}

/** The distinct slugs of a listing's `tag` filter (empty: no tag filter). */
export function tagSlugsOf(tag: string | null): string[] {
  if (tag === null) return [];
  return [
    ...new Set(
      tag
        .split(',')
        .map(labelSlug)
        .filter((slug) => slug.length > 0),
    ),
  ];
}

/** Where a row sits in the listing order. */
export interface ListingPosition {
  publishedAt: Date;
  id: string;
}

/** Every `listingAnchorStep`-th row's position is remembered, so a deep page is a seek plus a short skip. */
export const listingAnchorStep = 500;

/**
 * A listing's size and a sparse map of its order: `anchors[i]` is the position of row `i * listingAnchorStep`
 * (0-based). Computed in one index scan; worth keeping while the content does not change.
 * A search (`q`) has no anchors (its order is not the listing order): `ranked` holds the ids of its first
 * rows in search order instead, and `total` counts matches only up to `searchCountCap`.
 */
export interface ListingOutline {
  total: number;
  anchors: ListingPosition[];
  /** A search only: more than `total` articles match (`total` is `searchCountCap`, a lower bound). */
  totalIsLowerBound?: boolean;
  /** A search only: the ids of its ranked part (at most `rankedMatches`), best match first. */
  ranked?: string[];
}

/**
 * How to reach row `offset` of a listing: start at an anchor (inclusive) and skip fewer than
 * `listingAnchorStep` rows, so a page near the end costs about what page 1 costs.
 */
export function seekPosition(
  outline: ListingOutline,
  offset: number,
): { from: ListingPosition | null; skip: number } {
  const index = Math.min(Math.floor(offset / listingAnchorStep), outline.anchors.length - 1);
  const from = index >= 0 ? (outline.anchors[index] ?? null) : null;
  return from ? { from, skip: offset - index * listingAnchorStep } : { from: null, skip: offset };
}
