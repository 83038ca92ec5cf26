/**
 * The tables whose rows reach a client response (or decide who may read one), and the columns the client read
 * path reads from each. The caches stay true only because every write to these tables fires
 * `notify_content_changed()` (insert, delete, truncate, and an update of any column listed here); and because
 * the article JSON cache keys on the articles row version, a change to another table that alters an article's
 * JSON must also touch the articles rows it concerns (`touchesArticlesOn`). See ./README.md.
 * apps/api/test/client/trigger-contract.test.ts checks the database's triggers against this list.
 */
export interface ClientVisibleTable {
  /** Columns read by the client read path: an update of any of them must send NOTIFY content_changed. */
  columns: readonly string[];
  /**
   * Columns that appear in an article's client JSON (host_sites): an update of one, or a delete of the row,
   * must touch the articles rows concerned by a row trigger (function `touch_articles...`, e.g.
   * `touch_articles_of_site()`; before delete).
   */
  touchesArticlesOn?: readonly string[];
  /**
   * Writes name the sites they concern (the notification payload, see content-notifications.ts), so caches
   * retire only those sites' responses: insert, update and delete notify through a `notify_content_changed_*()`
   * function with transition tables (migration 2026-11-23T1950), never the bare `notify_content_changed()`,
   * which means "everything changed" (what writes to the other tables send).
   */
  namesSites?: boolean;
}

export const clientVisibleTables: Readonly<Record<string, ClientVisibleTable>> = {
  articles: {
    columns: [
      'id',
      'status',
      'title',
      'slug',
      'excerpt',
      'body',
      'tags',
      'category',
      'section',
      'thumbnail',
      'image',
      'standfirst',
      'bylines',
      'thumbnail_meta',
      'image_meta',
      'corrections',
      'is_aggregated',
      'source',
      'source_url',
      'source_published_at',
      'published_at',
      'updated_at',
      // Kept by a trigger from title and body (migration 2026-11-23T1910); read by the search.
      'search_vector',
    ],
    namesSites: true,
  },
  // published_at and is_aggregated are copies of the article's, kept by triggers (migration 2026-11-22T0300).
  article_sites: { columns: ['article_id', 'site_id', 'published_at', 'is_aggregated'], namesSites: true },
  // name, domain, language, article_url_template and public_base_url: the feeds and sitemaps (syndication/),
  // /client/site and structured data; domain and article_url_template also build every article's `url`/`urls`
  // (so they touch the articles); allowed_origins: CORS (the key grants carry them).
  sites: {
    columns: [
      'id',
      'slug',
      'name',
      'domain',
      'language',
      'article_url_template',
      'allowed_origins',
      'public_base_url',
    ],
    touchesArticlesOn: ['slug', 'domain', 'article_url_template'],
  },
  // last_used_at is deliberately absent: recording key use must not empty the caches (2026-11-23T1810).
  site_api_keys: { columns: ['site_id', 'key_hash', 'revoked_at', 'kind'] },
};
