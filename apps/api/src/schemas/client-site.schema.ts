import { type Static, Type } from 'typebox';

const PublicUrl = (description: string) =>
  Type.Union([Type.String({ format: 'uri' }), Type.Null()], { description });

/** What a child site needs to know about itself: GET /api/v1/client/site. */
export const ClientSiteSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    slug: Type.String({ description: 'the name articles use in hostSites, and ?site= takes' }),
    name: Type.String(),
    domain: Type.Union([Type.String(), Type.Null()]),
    language: Type.String({ description: 'BCP 47 language (en, pt-BR): feeds, sitemaps, structured data' }),
    articleUrlTemplate: Type.Union([Type.String(), Type.Null()], {
      description: "how articles' `url` is built, e.g. https://{domain}/news/{slug}",
    }),
    publicBaseUrl: PublicUrl(
      'where the site serves its feeds and sitemaps: its publicBaseUrl, else the origin of articleUrlTemplate; null: neither is set',
    ),
    allowedOrigins: Type.Array(Type.String(), {
      description: "browser origins this site's keys answer (CORS)",
    }),
    feeds: Type.Object(
      {
        rss: PublicUrl('<publicBaseUrl>/feed.xml, proxied to GET /api/v1/client/feed.xml'),
        jsonFeed: PublicUrl('<publicBaseUrl>/feed.json, proxied to GET /api/v1/client/feed.json'),
        sitemap: PublicUrl('<publicBaseUrl>/sitemap.xml, proxied to GET /api/v1/client/sitemap.xml'),
        newsSitemap: PublicUrl(
          '<publicBaseUrl>/sitemap-news.xml, proxied to GET /api/v1/client/sitemap-news.xml',
        ),
      },
      {
        description:
          "the public addresses of the site's feeds and sitemaps on its own domain (the RSS self link and the sitemap index use them)",
      },
    ),
  },
  { title: 'ClientSite' },
);
export type ClientSite = Static<typeof ClientSiteSchema>;
