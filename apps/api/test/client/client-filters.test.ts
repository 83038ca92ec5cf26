import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite, issueSiteKey, minutesAgo } from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

const { app, db, close } = await createTestApp();
afterAll(close);

// Two sites. Newest first: t1 ... t6; `lone` is on no site. Drafts never show.
const alpha = await insertSite(db, 'alpha');
const beta = await insertSite(db, 'beta');
const alphaKey = (await issueSiteKey(db, alpha)).key;
const betaKey = (await issueSiteKey(db, beta)).key;

await insertArticle(db, {
  slug: 't1',
  title: 'Heroes of the flood',
  body: '<p>Volunteers rescued families from the rising river.</p><p>More later.</p>',
  excerpt: 'Volunteers rescued families from the rising river.',
  siteIds: [alpha],
  publishedAt: minutesAgo(1),
  tags: ['Heroes', 'New York'],
  category: 'News',
  section: 'World',
});
await insertArticle(db, {
  slug: 't2',
  title: 'Budget vote tonight',
  body: '<p>The council votes on the budget; heroes are not involved.</p>',
  siteIds: [alpha, beta],
  publishedAt: minutesAgo(2),
  tags: ['politics'],
  category: 'news',
  section: 'world',
});
await insertArticle(db, {
  slug: 't3',
  title: 'River levels fall',
  body: '<p>The river is back within its banks after the flood.</p>',
  siteIds: [beta],
  publishedAt: minutesAgo(3),
  aggregated: true,
  source: 'The Daily Planet',
  sourcePublishedAt: minutesAgo(30),
  tags: ['heroes', 'Weather'],
  category: 'NEWS',
});
await insertArticle(db, {
  slug: 't4',
  title: 'Match report',
  body: '<p>A flood of goals in the second half.</p>',
  siteIds: [alpha],
  publishedAt: minutesAgo(4),
  aggregated: true,
  source: 'Sports Wire',
  tags: ['new-york', 'Sport'],
  section: 'Sport',
});
await insertArticle(db, {
  slug: 't5',
  title: 'Flood defences funded',
  body: '<p>Money for flood defences, flood barriers and flood alarms.</p>',
  siteIds: [beta],
  publishedAt: minutesAgo(5),
  tags: ['politics', 'Weather'],
});
await insertArticle(db, { slug: 'lone', title: 'Flood elsewhere', siteIds: [], publishedAt: minutesAgo(6) });
await insertArticle(db, {
  slug: 'draft',
  title: 'Flood draft',
  status: 'draft',
  siteIds: [alpha, beta],
  tags: ['heroes'],
});

const get = (url: string, key: string = testApiKey) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });
const ok = async (url: string, key?: string) => {
  const response = await get(url, key);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json();
};
const slugs = async (url: string, key?: string) =>
  (await ok(url, key)).data.map((article: { slug: string }) => article.slug);
const expect400 = async (url: string, pattern: RegExp) => {
  const response = await get(url);
  expect(response.statusCode, url).toBe(400);
  expect(response.json().code, url).toBe('VALIDATION_ERROR');
  expect(response.json().message, url).toMatch(pattern);
};

describe('filters', () => {
  it('matches tags by slug, whatever the case or spelling', async () => {
    expect(await slugs('/posts?tag=heroes')).toEqual(['t1', 't3']);
    expect(await slugs('/posts?tag=HEROES')).toEqual(['t1', 't3']);
    expect(await slugs('/posts?tag=new-york')).toEqual(['t1', 't4']);
    expect(await slugs('/posts?tag=New%20York')).toEqual(['t1', 't4']);
    expect(await slugs('/posts?tag=heroes', betaKey)).toEqual(['t3']);
  });

  it('takes a comma-separated list of tags: any of them', async () => {
    expect(await slugs('/posts?tag=heroes,sport')).toEqual(['t1', 't3', 't4']);
    expect(await slugs('/posts?tag=politics,%20weather')).toEqual(['t2', 't3', 't5']);
    expect(await slugs('/posts?tag=politics,weather', alphaKey)).toEqual(['t2']);
    expect(await slugs('/partner-articles?tag=heroes,sport')).toEqual(['t3', 't4']);
  });

  it('compares category and section case-insensitively', async () => {
    expect(await slugs('/posts?category=news')).toEqual(['t1', 't2', 't3']);
    expect(await slugs('/posts?category=NeWs', betaKey)).toEqual(['t2', 't3']);
    expect(await slugs('/posts?section=WORLD')).toEqual(['t1', 't2']);
    expect(await slugs('/posts?section=sport&tag=sport')).toEqual(['t4']);
  });

  it('filters by source (publisher name slug) and by aggregated', async () => {
    expect(await slugs('/posts?source=the-daily-planet')).toEqual(['t3']);
    expect(await slugs('/posts?source=The%20Daily%20Planet')).toEqual(['t3']);
    expect(await slugs('/posts?source=sports-wire', betaKey)).toEqual([]);
    expect(await slugs('/posts?aggregated=true')).toEqual(['t3', 't4']);
    expect(await slugs('/posts?aggregated=false')).toEqual(['t1', 't2', 't5', 'lone']);
    expect(await slugs('/posts?aggregated=false', alphaKey)).toEqual(['t1', 't2']);
    expect(await slugs('/partner-articles?aggregated=false')).toEqual([]);
  });

  it('filters by publication date: after is inclusive, before exclusive; dates or date-times', async () => {
    const at = (minutes: number) => encodeURIComponent(minutesAgo(minutes).toISOString());
    expect(await slugs(`/posts?publishedAfter=${at(3)}`)).toEqual(['t1', 't2', 't3']);
    expect(await slugs(`/posts?publishedBefore=${at(3)}`)).toEqual(['t4', 't5', 'lone']);
    expect(await slugs(`/posts?publishedAfter=${at(4)}&publishedBefore=${at(2)}`, alphaKey)).toEqual(['t4']);
    expect(await slugs(`/posts?publishedAfter=${at(4)}&publishedBefore=${at(2)}`, betaKey)).toEqual(['t3']);
    // minutesAgo() is on 2026-11-20 around noon UTC.
    expect(await slugs('/posts?publishedAfter=2026-11-21')).toEqual([]);
    expect(await slugs('/posts?publishedBefore=2026-11-21&publishedAfter=2026-11-20')).toHaveLength(6);
    expect(await slugs('/posts?publishedAfter=2026-11-20T11:57:30')).toEqual(['t1', 't2']);
    expect(await slugs('/posts?publishedAfter=2026-11-20T12:57:30%2B01:00')).toEqual(['t1', 't2']);
    expect(await slugs('/posts?publishedAfter=2026-11-20t10:57:30-01')).toEqual(['t1', 't2']);
    expect(await slugs('/posts?publishedAfter=2026-11-20%2011:57:30.000z')).toEqual(['t1', 't2']);
  });

  it('gives every filter combination its own cache entry and total', async () => {
    expect((await ok('/posts?tag=heroes')).meta.pagination.total).toBe(2);
    expect((await ok('/posts?tag=heroes&aggregated=true')).meta.pagination.total).toBe(1);
    expect((await ok('/posts?tag=heroes&publishedBefore=2026-01-01')).meta.pagination.total).toBe(0);
  });

  it('refuses bad dates, empty filters and unknown parameters, naming them', async () => {
    await expect400('/posts?publishedAfter=yesterday', /publishedAfter/);
    await expect400('/posts?publishedBefore=2026-02-30', /publishedBefore/);
    await expect400('/posts?publishedAfter=2026-11-20T25:00:00Z', /publishedAfter/);
    await expect400('/posts?aggregated=maybe', /aggregated/);
    await expect400('/posts?tag=,,', /tag/);
    await expect400('/posts?tag=!!!', /tag/);
    await expect400('/posts?q=%20%20', /q is blank/);
    await expect400('/posts?tags=heroes', /unknown query parameter "tags"/);
    await expect400('/all?search=flood', /unknown query parameter "search"/);
    await expect400('/tags?tag=heroes', /unknown query parameter "tag"/);
  });
});

describe('search', () => {
  it('ranks title matches above body matches, then newest first, within the key scope', async () => {
    // Title matches (weight A): t5 (title + 3x in body), lone; body only (weight B): t3, t4.
    expect(await slugs('/posts?q=flood')).toEqual(['t5', 't1', 'lone', 't3', 't4']);
    expect(await slugs('/posts?q=flood', alphaKey)).toEqual(['t1', 't4']);
    expect(await slugs('/posts?q=flood', betaKey)).toEqual(['t5', 't3']);
    expect(await slugs('/posts?q=flood&site=beta')).toEqual(['t5', 't3']);
  });

  it('understands web search syntax and stems words', async () => {
    expect(await slugs('/posts?q=rivers')).toEqual(['t3', 't1']);
    expect(await slugs('/posts?q=%22rising%20river%22')).toEqual(['t1']);
    // (ts_rank weighs a query with a negation its own way: only the set is checked here.)
    expect((await slugs('/posts?q=flood%20-river')).sort()).toEqual(['lone', 't4', 't5']);
    expect(await slugs('/posts?q=budget%20or%20goals')).toEqual(['t2', 't4']);
    expect(await slugs('/posts?q=the')).toEqual([]);
  });

  it('combines with filters and paginates like any list', async () => {
    expect(await slugs('/posts?q=flood&aggregated=true')).toEqual(['t3', 't4']);
    expect(await slugs('/partner-articles?q=flood&tag=sport')).toEqual(['t4']);
    const page2 = await ok('/posts?q=flood&limit=2&page=2');
    expect(page2.data.map((article: { slug: string }) => article.slug)).toEqual(['lone', 't3']);
    expect(page2.meta.pagination).toEqual({
      page: 2,
      limit: 2,
      pages: 3,
      total: 5,
      totalRelation: 'eq',
      next: 3,
      prev: 1,
    });
    expect((await ok('/posts?q=flood&limit=2&page=4')).data).toEqual([]);
  });

  it('never finds drafts', async () => {
    expect(await slugs('/posts?q=draft')).toEqual([]);
  });

  it('streams search results in rank order from /all', async () => {
    expect(await slugs('/all?q=flood')).toEqual(['t5', 't1', 'lone', 't3', 't4']);
  });
});

describe('fields and article JSON', () => {
  it('returns only the fields asked for, in the usual order, and caches each field set apart', async () => {
    const body = await ok('/posts?fields=slug,id,excerpt,title&limit=1');
    expect(Object.keys(body.data[0])).toEqual(['id', 'title', 'slug', 'excerpt']);
    expect(body.data[0]).toMatchObject({
      slug: 't1',
      title: 'Heroes of the flood',
      excerpt: 'Volunteers rescued families from the rising river.',
    });
    expect(body.meta.pagination.total).toBe(6);
    const full = await ok('/posts?limit=1');
    expect(Object.keys(full.data[0])).toContain('body');
    const all = await ok('/all?fields=slug,publishedAt', betaKey);
    expect(all.data[0]).toEqual({ slug: 't2', publishedAt: minutesAgo(2).toISOString() });
  });

  it('refuses an unknown field, naming it', async () => {
    await expect400('/posts?fields=id,author', /unknown field "author"/);
    await expect400('/all?fields=id,,secret', /unknown field "secret"/);
    await expect400('/posts?fields=,', /fields names no field/);
  });

  it('carries tags as objects beside the strings, and sourcePublishedAt for imported articles', async () => {
    const article = await ok('/article/t1');
    expect(article.tags).toEqual(['Heroes', 'New York']);
    expect(article.tagObjects).toEqual([
      { name: 'Heroes', slug: 'heroes' },
      { name: 'New York', slug: 'new-york' },
    ]);
    expect(article.sourcePublishedAt).toBeNull();
    const imported = await ok('/article/t3');
    expect(imported.sourcePublishedAt).toBe(minutesAgo(30).toISOString());
    expect(imported.source).toBe('The Daily Planet');
  });
});

describe('taxonomies', () => {
  it('lists tags by slug with published-article counts, most used first', async () => {
    expect((await ok('/tags')).data).toEqual([
      { name: 'Heroes', slug: 'heroes', count: 2 },
      { name: 'New York', slug: 'new-york', count: 2 },
      { name: 'politics', slug: 'politics', count: 2 },
      { name: 'Weather', slug: 'weather', count: 2 },
      { name: 'Sport', slug: 'sport', count: 1 },
    ]);
  });

  it('counts only the key scope', async () => {
    expect((await ok('/tags', betaKey)).data).toEqual([
      { name: 'politics', slug: 'politics', count: 2 },
      { name: 'Weather', slug: 'weather', count: 2 },
      { name: 'heroes', slug: 'heroes', count: 1 },
    ]);
    expect((await ok('/tags?site=alpha')).data.map((term: { slug: string }) => term.slug)).toEqual([
      'new-york',
      'heroes',
      'politics',
      'sport',
    ]);
    expect((await get('/tags?site=alpha', betaKey)).statusCode).toBe(403);
  });

  it('groups categories and sections case-insensitively', async () => {
    // Three spellings, one each: the first in sort order names the group.
    expect((await ok('/categories')).data).toEqual([{ name: 'NEWS', slug: 'news', count: 3 }]);
    expect((await ok('/sections')).data).toEqual([
      { name: 'World', slug: 'world', count: 2 },
      { name: 'Sport', slug: 'sport', count: 1 },
    ]);
    expect((await ok('/sections', betaKey)).data).toEqual([{ name: 'world', slug: 'world', count: 1 }]);
  });

  it('answers with an ETag and 304 like other client reads', async () => {
    const first = await get('/categories');
    expect(first.headers.etag).toBeDefined();
    expect(first.headers['cache-control']).toMatch(/private/);
    const again = await app.inject({
      method: 'GET',
      url: '/api/v1/client/categories',
      headers: { 'x-api-key': testApiKey, 'if-none-match': first.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe('/all', () => {
  it('answers the lists’ wrapper: data, and meta.pagination as one page holding everything', async () => {
    const body = await ok('/all', alphaKey);
    expect(body.data.map((article: { slug: string }) => article.slug)).toEqual(['t1', 't2', 't4']);
    expect(body.meta).toEqual({
      pagination: { page: 1, limit: 3, pages: 1, total: 3, next: null, prev: null },
    });
    const empty = await ok('/all?tag=nothing-here');
    expect(empty).toEqual({
      data: [],
      meta: { pagination: { page: 1, limit: 0, pages: 0, total: 0, next: null, prev: null } },
    });
  });

  it('still answers a bare array with format=array, and takes the list filters', async () => {
    const array = await ok('/all?format=array&tag=heroes');
    expect(Array.isArray(array)).toBe(true);
    expect(array.map((article: { slug: string }) => article.slug)).toEqual(['t1', 't3']);
    expect(await slugs('/all?category=news&aggregated=false')).toEqual(['t1', 't2']);
    await expect400('/all?format=xml', /format/);
  });

  it('gives each shape and filter its own ETag', async () => {
    const etags = new Set<string>();
    for (const url of ['/all', '/all?format=array', '/all?tag=heroes', '/all?fields=id']) {
      etags.add((await get(url)).headers.etag as string);
    }
    expect(etags.size).toBe(4);
  });
});
