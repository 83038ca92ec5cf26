import type { SiteRow } from '../db/tables';

/** A child site: a public news site that reads published articles through the client routes. */
export interface Site {
  id: string;
  slug: string;
  name: string;
  domain: string | null;
  /** ISO 639 language code, e.g. `en` or `pt-BR` (the Google News sitemap names it). */
  language: string;
  /** How the site's public article URLs are built (`https://{domain}/news/{slug}`); null: not set. */
  articleUrlTemplate: string | null;
  /** Browser origins whose pages may read the client API with this site's keys (CORS); empty: none. */
  allowedOrigins: string[];
  /** Where the site serves its feeds and sitemaps from its own domain; null: the template's origin. */
  publicBaseUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A site with how many articles it hosts: what an administrator should know before deleting it. */
export interface SiteWithArticleCount extends Site {
  articleCount: { total: number; published: number };
}

export function toSite(row: SiteRow): Site {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    domain: row.domain,
    language: row.language,
    articleUrlTemplate: row.article_url_template,
    allowedOrigins: row.allowed_origins,
    publicBaseUrl: row.public_base_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
