import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite, issueSiteKey, minutesAgo } from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

const { app, db, config, close } = await createTestApp();
afterAll(close);

// Two sites; 'shared' is on both. Newest first: a1 (1 min ago) ... ; drafts etc. never visible.
const alpha = await insertSite(db, 'alpha');
const beta = await insertSite(db, 'beta');
const alphaKey = (await issueSiteKey(db, alpha)).key;
const betaKey = (await issueSiteKey(db, beta)).key;

await insertArticle(db, {
  slug: 'a1',
  siteIds: [alpha],
  publishedAt: minutesAgo(1),
  tags: ['politics'],
  category: 'news',
});
await insertArticle(db, {
  slug: 'shared',
  siteIds: [alpha, beta],
  publishedAt: minutesAgo(2),
  section: 'world',
});
await insertArticle(db, {
  slug: 'b1',
  siteIds: [beta],
  publishedAt: minutesAgo(3),
  aggregated: true,
  tags: ['politics'],
});
await insertArticle(db, {
  slug: 'a2',
  siteIds: [alpha],
  publishedAt: minutesAgo(4),
  aggregated: true,
  category: 'news',
});
await insertArticle(db, { slug: 'nowhere', siteIds: [], publishedAt: minutesAgo(5) });
for (const status of ['draft', 'pending', 'rejected'] as const) {
  await insertArticle(db, {
    slug: `hidden-${status}`,
    status,
    siteIds: [alpha, beta],
    aggregated: status === 'pending',
  });
}

const get = (url: string, key: string = testApiKey, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key, ...headers } });
const slugs = async (url: string, key?: string) => {
  const response = await get(url, key);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  return body.data.map((article: { slug: string }) => article.slug);
};

describe('what each key sees', () => {
  it('lists published articles newest first; the network key sees all, a site key only its site', async () => {
    expect(await slugs('/posts')).toEqual(['a1', 'shared', 'b1', 'a2', 'nowhere']);
    expect(await slugs('/posts', alphaKey)).toEqual(['a1', 'shared', 'a2']);
    expect(await slugs('/posts', betaKey)).toEqual(['shared', 'b1']);
  });

  it('scopes partner articles (aggregated only)', async () => {
    expect(await slugs('/partner-articles')).toEqual(['b1', 'a2']);
    expect(await slugs('/partner-articles', alphaKey)).toEqual(['a2']);
    expect(await slugs('/partner-articles', betaKey)).toEqual(['b1']);
  });

  it('scopes /all', async () => {
    expect(await slugs('/all')).toEqual(['a1', 'shared', 'b1', 'a2', 'nowhere']);
    expect(await slugs('/all', alphaKey)).toEqual(['a1', 'shared', 'a2']);
    expect(await slugs('/all?site=beta')).toEqual(['shared', 'b1']);
  });

  it('scopes the article by slug: a site key never reads another site’s article', async () => {
    expect((await get('/article/b1', betaKey)).statusCode).toBe(200);
    expect((await get('/article/b1', alphaKey)).statusCode).toBe(404);
    expect((await get('/article/shared', alphaKey)).statusCode).toBe(200);
    expect((await get('/article/nowhere', alphaKey)).statusCode).toBe(404);
    expect((await get('/article/nowhere')).statusCode).toBe(200);
    expect((await get('/article/b1?site=alpha')).statusCode).toBe(404);
  });

  it('never shows drafts, pending or rejected articles', async () => {
    for (const status of ['draft', 'pending', 'rejected']) {
      const response = await get(`/article/hidden-${status}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('ARTICLE_NOT_FOUND');
    }
    const everything = [
      ...(await slugs('/all')),
      ...(await slugs('/partner-articles')),
      ...(await slugs('/posts?limit=100')),
    ];
    expect(everything.some((slug: string) => slug.startsWith('hidden'))).toBe(false);
  });

  it('narrows the network key with ?site=; refuses a site key naming another site; rejects unknown sites', async () => {
    expect(await slugs('/posts?site=alpha')).toEqual(['a1', 'shared', 'a2']);
    expect(await slugs('/posts?site=alpha', alphaKey)).toEqual(['a1', 'shared', 'a2']);
    const other = await get('/posts?site=beta', alphaKey);
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe('SITE_FORBIDDEN');
    expect((await get('/article/shared?site=beta', alphaKey)).statusCode).toBe(403);
    const unknown = await get('/posts?site=gamma');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('UNKNOWN_SITE');
  });
});

describe('article JSON', () => {
  it('has exactly the client fields; manual articles carry no source', async () => {
    const manual = (await get('/article/a1')).json();
    expect(Object.keys(manual).sort()).toEqual(
      [
        'id',
        'title',
        'slug',
        'excerpt',
        'body',
        'tags',
        'tagObjects',
        'category',
        'section',
        'thumbnail',
        'image',
        'hostSites',
        'urls',
        'isAggregated',
        'source',
        'sourceUrl',
        'sourcePublishedAt',
        'publishedAt',
        'updatedAt',
        // Issue 32.
        'standfirst',
        'bylines',
        'thumbnailMeta',
        'imageMeta',
        'corrections',
        'renditions',
      ].sort(),
    );
    expect(manual).toMatchObject({
      slug: 'a1',
      hostSites: ['alpha'],
      isAggregated: false,
      source: null,
      sourceUrl: null,
      tags: ['politics'],
      tagObjects: [{ name: 'politics', slug: 'politics' }],
      category: 'news',
      sourcePublishedAt: null,
    });
    expect(manual.publishedAt).toBe(minutesAgo(1).toISOString());
    const shared = (await get('/article/shared', betaKey)).json();
    expect(shared.hostSites).toEqual(['alpha', 'beta']);
    const aggregated = (await get('/article/a2')).json();
    expect(aggregated).toMatchObject({
      isAggregated: true,
      source: 'Daily Planet',
      sourceUrl: 'https://planet.example/a2',
    });
  });
});

describe('filters', () => {
  it('filters by tag, category and section, combined with scope', async () => {
    expect(await slugs('/posts?tag=politics')).toEqual(['a1', 'b1']);
    expect(await slugs('/posts?tag=politics', alphaKey)).toEqual(['a1']);
    expect(await slugs('/posts?category=news')).toEqual(['a1', 'a2']);
    expect(await slugs('/posts?category=news&tag=politics')).toEqual(['a1']);
    expect(await slugs('/posts?section=world', betaKey)).toEqual(['shared']);
    expect(await slugs('/partner-articles?category=news')).toEqual(['a2']);
    expect(await slugs('/posts?tag=none')).toEqual([]);
  });

  it('refuses unknown query parameters and bad values', async () => {
    for (const query of ['?tags=x', '?page=0', '?page=abc', '?limit=1000', '?limit=0', '?page=-1', '?tag=']) {
      const response = await get(`/posts${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('pagination', () => {
  const meta = async (url: string, key?: string) => (await get(url, key)).json().meta.pagination;

  it('reports page, limit, pages, total, next and prev', async () => {
    expect(await meta('/posts?limit=2')).toEqual({
      page: 1,
      limit: 2,
      pages: 3,
      total: 5,
      next: 2,
      prev: null,
      nextCursor: expect.any(String),
    });
    expect(await slugs('/posts?limit=2&page=2')).toEqual(['b1', 'a2']);
    expect(await meta('/posts?limit=2&page=3')).toEqual({
      page: 3,
      limit: 2,
      pages: 3,
      total: 5,
      next: null,
      prev: 2,
      nextCursor: null,
    });
    expect(await slugs('/posts?limit=2&page=3')).toEqual(['nowhere']);
  });

  it('defaults to 20 per page', async () => {
    expect(await meta('/posts')).toEqual({
      page: 1,
      limit: 20,
      pages: 1,
      total: 5,
      next: null,
      prev: null,
      nextCursor: null,
    });
  });

  it('answers a page past the end with empty data and correct meta', async () => {
    const response = await get('/posts?limit=2&page=9');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: [],
      meta: { pagination: { page: 9, limit: 2, pages: 3, total: 5, next: null, prev: 3, nextCursor: null } },
    });
  });

  it('handles an exact multiple of the page size', async () => {
    expect(await meta('/posts?limit=3', alphaKey)).toEqual({
      page: 1,
      limit: 3,
      pages: 1,
      total: 3,
      next: null,
      prev: null,
      nextCursor: null,
    });
    expect(await meta('/posts?limit=1&page=3', alphaKey)).toEqual({
      page: 3,
      limit: 1,
      pages: 3,
      total: 3,
      next: null,
      prev: 2,
      nextCursor: null,
    });
  });

  it('handles an empty listing', async () => {
    expect(await meta('/posts?tag=none')).toEqual({
      page: 1,
      limit: 20,
      pages: 0,
      total: 0,
      next: null,
      prev: null,
      nextCursor: null,
    });
    expect(await meta('/posts?tag=none&page=2')).toEqual({
      page: 2,
      limit: 20,
      pages: 0,
      total: 0,
      next: null,
      prev: 1,
      nextCursor: null,
    });
  });
});

describe('HTTP caching', () => {
  it('sends a strong ETag, Cache-Control and Vary, and 304 on a matching If-None-Match', async () => {
    for (const url of ['/posts', '/partner-articles', '/article/a1', '/all']) {
      const first = await get(url, alphaKey);
      expect(first.statusCode).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[^"]+"$/);
      // private: a shared cache ignoring Vary must never serve one key's answer to another caller.
      expect(first.headers['cache-control']).toBe(
        `private, max-age=${config.client.cacheMaxAge}, stale-while-revalidate=${config.client.staleWhileRevalidate}`,
      );
      expect(first.headers.vary).toContain('x-api-key');
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');

      const again = await get(url, alphaKey, { 'if-none-match': etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect((await get(url, alphaKey, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
      expect((await get(url, alphaKey, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    }
  });

  it('gives different scopes different ETags', async () => {
    const alphaTag = (await get('/posts', alphaKey)).headers.etag;
    const betaTag = (await get('/posts', betaKey)).headers.etag;
    expect(alphaTag).not.toBe(betaTag);
  });

  it('marks errors as not storable', async () => {
    const missing = await get('/article/unknown-slug');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers.etag).toBeUndefined();
  });
});

describe('/all', () => {
  it('streams a valid JSON array of many articles, newest first', async () => {
    const many = await insertSite(db, 'many');
    const manyKey = (await issueSiteKey(db, many)).key;
    await db.transaction().execute(async (tx) => {
      const rows = await tx
        .insertInto('articles')
        .values(
          Array.from({ length: 1500 }, (_, i) => ({
            title: `Bulk ${i}`,
            slug: `bulk-${i}`,
            body: 'x'.repeat(500),
            status: 'published' as const,
            published_at: minutesAgo(100 + i),
          })),
        )
        .returning('id')
        .execute();
      await tx
        .insertInto('article_sites')
        .values(rows.map((row) => ({ article_id: row.id, site_id: many })))
        .execute();
    });
    const all = await slugs('/all', manyKey);
    expect(all).toHaveLength(1500);
    expect(all.slice(0, 2)).toEqual(['bulk-0', 'bulk-1']);
    expect(all.at(-1)).toBe('bulk-1499');
    // The same articles as walking every page of /posts.
    const paged: string[] = [];
    for (let page = 1; page <= 15; page++)
      paged.push(...(await slugs(`/posts?limit=100&page=${page}`, manyKey)));
    expect(paged).toEqual(all);
  });

  // Relies on the 1,500 articles of the test above: far more than one socket buffer and one cursor fetch.
  it('closes the database cursor when the client goes away mid-stream', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const request = http.get(
        { host: '127.0.0.1', port, path: '/api/v1/client/all', headers: { 'x-api-key': testApiKey } },
        (response) => {
          response.once('data', () => {
            request.destroy();
            resolve();
          });
        },
      );
      request.on('error', (error) =>
        (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(error),
      );
    });
    const openCursors = async () =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from pg_stat_activity
            where datname = current_database() and state <> 'idle' and query ilike '%lateral%'
              and pid <> pg_backend_pid()`.execute(db)
        ).rows[0]?.n,
      );
    await expect.poll(openCursors, { timeout: 2_000 }).toBe(0);
    // The pool still works.
    expect((await get('/posts?limit=1')).statusCode).toBe(200);
  });
});
