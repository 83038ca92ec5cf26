/** Examples of the syndication documents, for the OpenAPI document. */
export const syndicationExamples = {
  rss: `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:media="http://search.yahoo.com/mrss/" xmlns:atom="http://www.w3.org/2005/Atom">
<channel><atom:link href="https://metro.example.com/feed.xml" rel="self" type="application/rss+xml"/><title>Metro Daily</title><link>https://metro.example.com/</link><description>Latest articles from Metro Daily</description><language>en</language>
<item><title>Harbour bridge reopens</title><link>https://metro.example.com/news/harbour-bridge-reopens</link><guid isPermaLink="false">0b6e2b1e-8f0c-4a59-9c43-1f0a4c1d2e3f</guid><pubDate>Fri, 20 Nov 2026 12:00:00 GMT</pubDate><category>news</category><description>Traffic is back.</description><content:encoded>&lt;p&gt;Traffic is back.&lt;/p&gt;</content:encoded></item>
</channel></rss>`,
  jsonFeed: {
    version: 'https://jsonfeed.org/version/1.1',
    title: 'Metro Daily',
    home_page_url: 'https://metro.example.com/',
    feed_url: 'https://metro.example.com/feed.json',
    description: 'Latest articles from Metro Daily',
    language: 'en',
    items: [
      {
        id: '0b6e2b1e-8f0c-4a59-9c43-1f0a4c1d2e3f',
        url: 'https://metro.example.com/news/harbour-bridge-reopens',
        title: 'Harbour bridge reopens',
        content_html: '<p>Traffic is back.</p>',
        summary: 'Traffic is back.',
        date_published: '2026-11-20T12:00:00.000Z',
        date_modified: '2026-11-20T12:05:00.000Z',
        tags: ['news'],
      },
    ],
  },
  newsSitemap: `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
<url><loc>https://metro.example.com/news/harbour-bridge-reopens</loc><news:news><news:publication><news:name>Metro Daily</news:name><news:language>en</news:language></news:publication><news:publication_date>2026-11-20T12:00:00.000Z</news:publication_date><news:title>Harbour bridge reopens</news:title></news:news></url>
</urlset>`,
  sitemap: `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://api.example.com/api/v1/client/sitemap.xml?api_key=nsk_...&amp;page=1</loc></sitemap>
</sitemapindex>`,
};
