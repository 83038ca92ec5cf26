import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseFeed } from '@newsroom/feeds';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

const run = promisify(execFile);
const schemas = join(import.meta.dirname, '../fixtures/sitemap-schemas');
const scratch = await mkdtemp(join(tmpdir(), 'syndication-test-'));

const { app, db, close } = await createTestApp();
afterAll(async () => {
  await close();
  await rm(scratch, { recursive: true, force: true });
});

// Whole seconds: RSS dates (RFC 822) carry no milliseconds.
const secondsAgo = (seconds: number) => new Date((Math.floor(Date.now() / 1000) - seconds) * 1000);
const daysAgo = (days: number) => secondsAgo(days * 86_400);

const metro = await insertSite(db, 'metro');
await db
  .updateTable('sites')
  .set({
    name: 'Metro Daily & Co',
    domain: 'metro.example.com',
    language: 'pt-BR',
    article_url_template: 'https://{domain}/news/{slug}',
  })
  .where('id', '=', metro)
  .execute();
const untemplated = await insertSite(db, 'untemplated');
const metroKey = (await issueSiteKey(db, metro)).key;
const untemplatedKey = (await issueSiteKey(db, untemplated)).key;

const bridge = await insertArticle(db, {
  slug: 'harbour-bridge',
  title: 'Harbour bridge <reopens> & "traffic" flows',
  siteIds: [metro],
  publishedAt: secondsAgo(60),
  tags: ['Traffic', 'traffic', 'City'],
  category: 'News',
});
await db
  .updateTable('articles')
  .set({
    // As the API stores it: sanitised on write.
    body: '<figure><img src="https://cdn.example.com/b.jpg" alt="" /></figure><p>Traffic is <b>back</b> on the bridge.</p><p>More later.</p>',
    excerpt: 'Traffic is back on the bridge.',
    image: 'https://cdn.example.com/bridge.jpg',
  })
  .where('id', '=', bridge.id)
  .execute();
await insertArticle(db, {
  slug: 'imported-story',
  siteIds: [metro, untemplated],
  publishedAt: secondsAgo(120),
  aggregated: true,
  tags: ['Wire'],
});
await insertArticle(db, { slug: 'last-week', siteIds: [metro], publishedAt: daysAgo(7) });
await insertArticle(db, { slug: 'a-draft', status: 'draft', siteIds: [metro] });
await insertArticle(db, { slug: 'elsewhere', siteIds: [untemplated], publishedAt: secondsAgo(30) });

const get = (url: string, headers: Record<string, string> = { 'x-api-key': metroKey }) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers });

async function xmllint(document: string, schema: string): Promise<string> {
  const file = join(scratch, `${Math.random().toString(36).slice(2)}.xml`);
  await writeFile(file, document);
  const { stderr } = await run('xmllint', ['--noout', '--schema', join(schemas, schema), file], {
    timeout: 30_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stderr;
}

describe('RSS 2.0 (feed.xml)', () => {
  it('names its own public address with atom:link rel="self", and stays well-formed and parseable', async () => {
    const response = await get(`/feed.xml?api_key=${metroKey}`, {});
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain('xmlns:atom="http://www.w3.org/2005/Atom"');
    expect(response.body).toContain(
      '<atom:link href="https://metro.example.com/feed.xml" rel="self" type="application/rss+xml"/>',
    );
    expect(response.body).not.toContain(metroKey);
    const feed = await parseFeed(response.rawPayload, { url: 'https://metro.example.com/feed.xml' });
    expect(feed.items.length).toBeGreaterThan(0);
    const file = join(scratch, 'self-link.xml');
    await writeFile(file, response.body);
    const { stderr } = await run('xmllint', ['--noout', file], { timeout: 30_000 });
    expect(stderr).toBe('');
  });

  it('reads back through our own feed parser with identical titles, guids, dates and categories', async () => {
    const response = await get('/feed.xml');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    const feed = await parseFeed(response.rawPayload, { url: 'https://metro.example.com/feed.xml' });
    expect(feed.title).toBe('Metro Daily & Co');
    expect(feed.link).toBe('https://metro.example.com/');

    const rows = await db
      .selectFrom('articles')
      .select(['id', 'title', 'slug', 'published_at', 'body'])
      .where('slug', 'in', ['harbour-bridge', 'imported-story', 'last-week'])
      .orderBy('published_at', 'desc')
      .execute();
    expect(feed.items.map((item) => item.guid)).toEqual(rows.map((row) => row.id));
    expect(feed.items.map((item) => item.title)).toEqual(rows.map((row) => row.title));
    expect(feed.items.map((item) => item.publishedAt?.toISOString())).toEqual(
      rows.map((row) => row.published_at?.toISOString()),
    );
    expect(feed.items.map((item) => item.url)).toEqual(
      rows.map((row) => `https://metro.example.com/news/${row.slug}`),
    );
    const [first, second] = feed.items;
    expect(first?.categories).toEqual(['News', 'Traffic', 'City']);
    expect(second?.categories).toEqual(['Wire']);
    expect(first?.image).toBe('https://cdn.example.com/bridge.jpg');
    expect(first?.body).toBe(rows[0]?.body);
  });

  it('carries the excerpt (first paragraph, plain text) as description and the body in content:encoded', async () => {
    const xml = (await get('/feed.xml')).body;
    expect(xml).toContain('<description>Traffic is back on the bridge.</description>');
    expect(xml).toContain('<content:encoded>&lt;figure&gt;');
    expect(xml).toContain('<media:content url="https://cdn.example.com/bridge.jpg" medium="image"/>');
    expect(xml).toContain('<source url="https://planet.example/imported-story">Daily Planet</source>');
    expect(xml).not.toContain('a-draft');
  });

  it('takes the key as the api_key query parameter (feed readers cannot send headers)', async () => {
    const response = await get(`/feed.xml?api_key=${metroKey}`, {});
    expect(response.statusCode).toBe(200);
    expect((await get('/feed.xml?api_key=nsk_wrong', {})).statusCode).toBe(401);
  });

  it('answers 304 to its own ETag, and a new one after a change', async () => {
    const first = await get('/feed.xml');
    const etag = first.headers.etag as string;
    expect(first.headers['cache-control']).toMatch(/^private, max-age=\d+/);
    expect((await get('/feed.xml', { 'x-api-key': metroKey, 'if-none-match': etag })).statusCode).toBe(304);
    await db
      .updateTable('articles')
      .set({ title: 'Harbour bridge reopened' })
      .where('id', '=', bridge.id)
      .execute();
    await expect.poll(async () => (await get('/feed.xml')).headers.etag, { timeout: 5_000 }).not.toBe(etag);
    await db
      .updateTable('articles')
      .set({ title: 'Harbour bridge <reopens> & "traffic" flows' })
      .where('id', '=', bridge.id)
      .execute();
  });
});

describe('JSON Feed 1.1 (feed.json)', () => {
  it('has the fields the 1.1 spec requires, as application/feed+json', async () => {
    const response = await get('/feed.json');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/feed+json; charset=utf-8');
    const feed = response.json();
    // Required by https://www.jsonfeed.org/version/1.1/: version (the URL), title, items; each item an id
    // (a string) and content_html or content_text. Dates are RFC 3339.
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(typeof feed.title).toBe('string');
    expect(feed.home_page_url).toBe('https://metro.example.com/');
    expect(feed.feed_url).toBe('https://metro.example.com/feed.json');
    expect(feed.language).toBe('pt-BR');
    expect(feed.items).toHaveLength(3);
    for (const item of feed.items) {
      expect(typeof item.id).toBe('string');
      expect(typeof item.content_html).toBe('string');
      expect(item.date_published).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      expect(new URL(item.url).origin).toBe('https://metro.example.com');
    }
    expect(feed.items[0]).toMatchObject({
      summary: 'Traffic is back on the bridge.',
      image: 'https://cdn.example.com/bridge.jpg',
      tags: ['News', 'Traffic', 'City'],
    });
    expect(feed.items[1]).toMatchObject({
      external_url: 'https://planet.example/imported-story',
      authors: [{ name: 'Daily Planet', url: 'https://planet.example/imported-story' }],
    });
  });
});

describe('JSON Feed read back by the import', () => {
  it('parses through our own feed parser into the same items as the RSS feed', async () => {
    const url = 'https://metro.example.com/feed';
    const rss = await parseFeed((await get('/feed.xml')).rawPayload, { url });
    const json = await parseFeed((await get('/feed.json')).rawPayload, {
      url,
      contentType: 'application/feed+json',
    });
    expect(json.title).toBe(rss.title);
    const essentials = (items: typeof rss.items) =>
      items.map(({ guid, title, categories, image, publishedAt }) => ({
        guid,
        title,
        categories,
        image,
        publishedAt: publishedAt?.toISOString(),
      }));
    expect(essentials(json.items)).toEqual(essentials(rss.items));
  });
});

describe('sitemaps', () => {
  it('news sitemap: the last two days only, valid against the sitemap and News schemas', async () => {
    const response = await get('/sitemap-news.xml');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(await xmllint(response.body, 'news-sitemap.xsd')).toMatch(/validates/);
    expect(response.body).toContain('<news:name>Metro Daily &amp; Co</news:name>');
    expect(response.body).toContain('<news:language>pt</news:language>');
    expect(response.body).toContain('https://metro.example.com/news/harbour-bridge');
    expect(response.body).toContain('https://metro.example.com/news/imported-story');
    expect(response.body).not.toContain('last-week');
  });

  it('plain sitemap index and its page validate against the sitemap schemas', async () => {
    const index = await get(`/sitemap.xml?api_key=${metroKey}`, {});
    expect(index.statusCode, index.body).toBe(200);
    expect(await xmllint(index.body, 'siteindex.xsd')).toMatch(/validates/);
    const pageUrl = new URL(/<loc>([^<]+)<\/loc>/.exec(index.body)?.[1]?.replaceAll('&amp;', '&') as string);
    // On the site's own domain (its public base: here the template's origin), never the API host nor a key.
    expect(pageUrl.href).toBe('https://metro.example.com/sitemap.xml?page=1');
    expect(index.body).not.toContain(metroKey);
    expect(index.body).not.toContain('api_key');
    // The child site proxies <base>/sitemap.xml?page=n to the API with its key.
    const page = await get(`/sitemap.xml${pageUrl.search}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(await xmllint(page.body, 'sitemap.xsd')).toMatch(/validates/);
    expect(page.body.match(/<url>/g)).toHaveLength(3);
    expect((await get('/sitemap.xml?page=2')).json()).toMatchObject({ code: 'SITEMAP_PAGE_NOT_FOUND' });
  });

  it('the schemas do refuse a broken sitemap (the validation is real)', async () => {
    const broken =
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><lastmod>soon</lastmod></url></urlset>';
    await expect(xmllint(broken, 'sitemap.xsd')).rejects.toThrow(/fails to validate/);
  });

  it('pages the plain sitemap at 50,000 URLs', async () => {
    const big = await insertSite(db, 'big');
    await db
      .updateTable('sites')
      .set({ article_url_template: 'https://big.example.org/{slug}' })
      .where('id', '=', big)
      .execute();
    await sql`
      with inserted as (
        insert into articles (title, slug, body, tags, status, is_aggregated, published_at)
        select 'Story ' || n, 'story-' || n, 'Body', '{}', 'published', false,
               timestamptz '2026-01-01' + n * interval '1 second'
          from generate_series(1, 50001) n
        returning id)
      insert into article_sites (article_id, site_id) select id, ${big} from inserted`.execute(db);
    const bigKey = (await issueSiteKey(db, big)).key;
    const index = await get('/sitemap.xml', { 'x-api-key': bigKey });
    expect(index.body.match(/<sitemap>/g)).toHaveLength(2);
    expect(await xmllint(index.body, 'siteindex.xsd')).toMatch(/validates/);
    const first = await get('/sitemap.xml?page=1', { 'x-api-key': bigKey });
    expect(first.body.match(/<url>/g)).toHaveLength(50_000);
    expect(first.body).toContain('<loc>https://big.example.org/story-50001</loc>');
    expect(await xmllint(first.body, 'sitemap.xsd')).toMatch(/validates/);
    const second = await get('/sitemap.xml?page=2', { 'x-api-key': bigKey });
    expect(second.body.match(/<url>/g)).toHaveLength(1);
    expect(second.body).toContain('<loc>https://big.example.org/story-1</loc>');
  }, 120_000);
});

describe('keys and sites', () => {
  it('the network key must name a site: 400 SITE_REQUIRED without ?site=, the site with it', async () => {
    const bare = await get('/feed.xml', { 'x-api-key': testApiKey });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ code: 'SITE_REQUIRED' });
    expect(bare.headers['cache-control']).toBe('no-store');
    const named = await get('/feed.json?site=metro', { 'x-api-key': testApiKey });
    expect(named.statusCode).toBe(200);
    expect(named.json().items).toHaveLength(3);
  });

  it('a site key may not read another site (403), and a site without a URL template has no feeds (409)', async () => {
    expect((await get('/feed.xml?site=untemplated')).json()).toMatchObject({ code: 'SITE_FORBIDDEN' });
    for (const path of ['/feed.xml', '/feed.json', '/sitemap-news.xml', '/sitemap.xml']) {
      const response = await get(path, { 'x-api-key': untemplatedKey });
      expect(response.statusCode, path).toBe(409);
      expect(response.json()).toMatchObject({ code: 'ARTICLE_URL_TEMPLATE_MISSING' });
    }
  });

  it('refuses unknown query parameters and a missing key', async () => {
    expect((await get('/feed.xml?limit=5')).statusCode).toBe(400);
    expect((await get('/sitemap.xml?page=0')).statusCode).toBe(400);
    expect((await get('/feed.json', {})).statusCode).toBe(401);
  });
});
