import { sql } from 'kysely';
import type { HostSiteUrlParts } from '../sites/article-urls';

/** The columns of a published article, with its host-site slugs (sorted), their URL parts and its tags' slugs. */
export const publishedArticleColumns = [
  'articles.id',
  'articles.title',
  'articles.slug',
  'articles.excerpt',
  'articles.body',
  'articles.tags',
  sql<string[]>`label_slugs(articles.tags)`.as('tag_slugs'),
  'articles.category',
  'articles.section',
  'articles.thumbnail',
  'articles.image',
  'articles.standfirst',
  'articles.bylines',
  'articles.thumbnail_meta',
  'articles.image_meta',
  'articles.corrections',
  'articles.is_aggregated',
  'articles.source',
  'articles.source_url',
  'articles.source_published_at',
  'articles.published_at',
  'articles.updated_at',
  sql<string[]>`array(
    select sites.slug from article_sites join sites on sites.id = article_sites.site_id
     where article_sites.article_id = articles.id order by sites.slug)`.as('host_sites'),
  // What the canonical URLs are built from (article-urls.ts): [slug, template, domain] of each host site
  // that has a template, read in the same snapshot as the row (a template change touches the row).
  sql<HostSiteUrlParts[]>`(
    select coalesce(json_agg(json_build_array(sites.slug, sites.article_url_template, sites.domain)
                             order by sites.slug), '[]'::json)
      from article_sites join sites on sites.id = article_sites.site_id
     where article_sites.article_id = articles.id and sites.article_url_template is not null)`.as(
    'host_site_urls',
  ),
] as const;

/**
 * The row version of an article: Postgres gives every committed insert or update of a row a new tuple whose
 * xmin is the writing transaction's id, so equal versions mean the same articles row. (Host-site changes and
 * site renames or deletions touch the articles rows they concern, so the version covers `host_sites` too.)
 */
export const rowVersion = sql<string>`articles.xmin::text`;
