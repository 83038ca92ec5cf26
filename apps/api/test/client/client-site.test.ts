import { parseFeed as rowanmanningParse } from '@rowanmanning/feed-parser';
import RssParser from 'rss-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { insertSite, issueSiteKey } from '../support/content-fixtures';
import { createDashboardUsers } from '../support/dashboard-users';
import { createTestApp, testApiKey } from '../support/test-app';

// GET /client/site describes the key's own site; a site's public base moves the feeds' self links and the
// sitemap index's <loc>s onto the child site's domain (where it proxies or rewrites them to the API).
const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken } = await createDashboardUsers(testApp);

const metro = await insertSite(db, 'metro');
await db
  .updateTable('sites')
  .set({
    name: 'Metro Daily',
    domain: 'metro.example.com',
    language: 'pt-BR',
    article_url_template: 'https://{domain}/news/{slug}',
    allowed_origins: ['https://metro.example.com'],
  })
  .where('id', '=', metro)
  .execute();
const bare = await insertSite(db, 'bare');
const metroKey = (await issueSiteKey(db, metro)).key;
const bareKey = (await issueSiteKey(db, bare)).key;

const get = (url: string, key: string) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });
const editSite = (id: string, payload: object) =>
  app.inject({
    method: 'PUT',
    url: `/api/v1/site/${id}`,
    headers: { authorization: `Bearer ${adminToken}` },
    payload,
  });

describe('GET /client/site', () => {
  it("answers a site key's own site with its public feed and sitemap URLs", async () => {
    const response = await get('/site', metroKey);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      id: metro,
      slug: 'metro',
      name: 'Metro Daily',
      domain: 'metro.example.com',
      language: 'pt-BR',
      articleUrlTemplate: 'https://{domain}/news/{slug}',
      publicBaseUrl: 'https://metro.example.com',
      allowedOrigins: ['https://metro.example.com'],
      feeds: {
        rss: 'https://metro.example.com/feed.xml',
        jsonFeed: 'https://metro.example.com/feed.json',
        sitemap: 'https://metro.example.com/sitemap.xml',
        newsSitemap: 'https://metro.example.com/sitemap-news.xml',
      },
    });
    expect(response.headers.etag).toMatch(/^"/);
    const again = await get('/site', metroKey);
    expect(again.body).toBe(response.body);
  });

  it('answers a site without template nor base with null URLs', async () => {
    const site = (await get('/site', bareKey)).json();
    expect(site).toMatchObject({ slug: 'bare', articleUrlTemplate: null, publicBaseUrl: null });
    expect(site.feeds).toEqual({ rss: null, jsonFeed: null, sitemap: null, newsSitemap: null });
  });

  it('makes the network key name a site: 400 SITE_REQUIRED without ?site=, the site with it', async () => {
    const refused = await get('/site', testApiKey);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('SITE_REQUIRED');
    expect((await get('/site?site=metro', testApiKey)).json().slug).toBe('metro');
    expect((await get('/site?site=bare', metroKey)).statusCode).toBe(403);
  });
});

describe('the public base URL of a site', () => {
  it('is validated and normalised by the site API', async () => {
    for (const bad of ['ftp://x.example.com', 'https://x.example.com/?a=1', 'not a url']) {
      const refused = await editSite(metro, { publicBaseUrl: bad });
      expect(refused.statusCode, bad).toBe(400);
    }
    const set = await editSite(metro, { publicBaseUrl: 'https://www.metro.example.com/syndication/' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().publicBaseUrl).toBe('https://www.metro.example.com/syndication');
  });

  it('moves the site info, the RSS self link, the JSON Feed feed_url and the sitemap index onto it', async () => {
    const base = 'https://www.metro.example.com/syndication';
    await expect.poll(async () => (await get('/site', metroKey)).json().feeds.rss).toBe(`${base}/feed.xml`);
    const rss = (await get('/feed.xml', metroKey)).body;
    expect(rss).toContain(`<atom:link href="${base}/feed.xml" rel="self" type="application/rss+xml"/>`);
    // Independent readers find the self link where RSS Best Practices put it.
    expect(rowanmanningParse(rss).self).toBe(`${base}/feed.xml`);
    expect((await new RssParser().parseString(rss)).feedUrl).toBe(`${base}/feed.xml`);
    expect((await get('/feed.json', metroKey)).json().feed_url).toBe(`${base}/feed.json`);
    const index = await get('/sitemap.xml', metroKey);
    expect(index.body).toContain(`<loc>${base}/sitemap.xml?page=1</loc>`);
    expect((await editSite(metro, { publicBaseUrl: null })).json().publicBaseUrl).toBeNull();
  });
});
