import { parseFeed as rowanmanningParse } from '@rowanmanning/feed-parser';
import { XMLParser } from 'fast-xml-parser';
import { parseRssFeed } from 'feedsmith';
import RssParser from 'rss-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { issueSiteKey } from '../support/content-fixtures';
import { createDashboardUsers } from '../support/dashboard-users';
import { createTestApp } from '../support/test-app';

// Escape once: a title is plain text. Every output escapes it exactly once for its own syntax, and every
// independent reader gets back the text the editor typed. The slug and the search are built from that text.
const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken } = await createDashboardUsers(testApp);
const admin = { authorization: `Bearer ${adminToken}` };

const site = await app.inject({
  method: 'POST',
  url: '/api/v1/site',
  headers: admin,
  payload: { slug: 'metro', name: 'Metro <Daily> & "Co"' },
});
expect(site.statusCode, site.body).toBe(201);
await db
  .updateTable('sites')
  .set({ domain: 'metro.example.com', article_url_template: 'https://{domain}/news/{slug}' })
  .where('id', '=', site.json().id)
  .execute();
const siteKey = (await issueSiteKey(db, site.json().id)).key;

async function publish(title: string) {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/article',
    headers: admin,
    payload: { title, body: '<p>Boats are back in the harbour.</p>', hostSites: ['metro'] },
  });
  expect(created.statusCode, created.body).toBe(201);
  const published = await app.inject({
    method: 'PUT',
    url: `/api/v1/article/publish/${created.json().id}`,
    headers: admin,
  });
  expect(published.statusCode, published.body).toBe(200);
  return published.json() as { id: string; slug: string; title: string };
}

const get = (url: string) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': siteKey } });

const tagTitle = 'A <b> tag & "quotes"';
const scriptTitle = 'Police find <script> in harbour after storm';
const tagArticle = await publish(tagTitle);
const scriptArticle = await publish(scriptTitle);
const titles = [scriptTitle, tagTitle];

describe('a title with markup characters', () => {
  it('round-trips through the JSON API', async () => {
    expect((await get(`/article/${tagArticle.slug}`)).json().title).toBe(tagTitle);
    expect((await get('/posts')).json().data.map((a: { title: string }) => a.title)).toEqual(titles);
  });

  it('round-trips through RSS, read by three independent parsers', async () => {
    const response = await get('/feed.xml');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain('<title>A &lt;b&gt; tag &amp; &quot;quotes&quot;</title>');
    const rssParser = await new RssParser().parseString(response.body);
    expect(rssParser.items.map((item) => item.title)).toEqual(titles);
    expect(rssParser.title).toBe('Metro <Daily> & "Co"');
    const rowanmanning = rowanmanningParse(response.body);
    expect(rowanmanning.items.map((item) => item.title)).toEqual(titles);
    const feedsmith = parseRssFeed(response.body);
    expect(feedsmith.items?.map((item) => item.title)).toEqual(titles);
  });

  it('round-trips through JSON Feed and the news sitemap', async () => {
    const feed = (await get('/feed.json')).json();
    expect(feed.items.map((item: { title: string }) => item.title)).toEqual(titles);
    expect(feed.title).toBe('Metro <Daily> & "Co"');
    const sitemap = await get('/sitemap-news.xml');
    expect(sitemap.statusCode, sitemap.body).toBe(200);
    const parsed = new XMLParser({ processEntities: true, htmlEntities: false }).parse(sitemap.body);
    const urls = [parsed.urlset.url].flat();
    expect(
      urls.map((url: { 'news:news': { 'news:title': string } }) => url['news:news']['news:title']),
    ).toEqual(titles);
    expect(urls[0]['news:news']['news:publication']['news:name']).toBe('Metro <Daily> & "Co"');
  });

  it('makes the slug from the words a reader sees', () => {
    expect(scriptArticle.slug).toBe('police-find-script-in-harbour-after-storm');
    expect(tagArticle.slug).toBe('a-b-tag-and-quotes');
  });

  it('is searchable by every word of it, <script> included', async () => {
    for (const word of ['police', 'script', 'harbour', 'storm']) {
      const found = (await get(`/posts?q=${word}`)).json().data.map((a: { id: string }) => a.id);
      expect(found, word).toContain(scriptArticle.id);
    }
    const tag = (await get('/posts?q=quotes')).json().data.map((a: { id: string }) => a.id);
    expect(tag).toContain(tagArticle.id);
  });
});
