import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPreviewLink, revokePreviewLink } from '@newsroom/domain';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  insertArticle,
  insertSite,
  issueSiteKey,
  minutesAgo,
} from '../../../apps/api/test/support/content-fixtures';
import { createTestApp } from '../../../apps/api/test/support/test-app';
import { type ClientArticle, createNewsroomClient, NewsroomApiError, unwrap } from '../src';

// A real API instance on a loopback port, with its own test database; the SDK talks to it over HTTP.
const { app, db, close } = await createTestApp();
afterAll(close);
const metro = await insertSite(db, 'metro');
await db
  .updateTable('sites')
  .set({ name: 'Metro Daily', article_url_template: 'https://metro.example.com/news/{slug}' })
  .where('id', '=', metro)
  .execute();
const apiKey = (await issueSiteKey(db, metro)).key;
for (let n = 1; n <= 45; n++) {
  await insertArticle(db, {
    slug: `story-${n}`,
    siteIds: [metro],
    publishedAt: minutesAgo(n),
    aggregated: n % 3 === 0,
  });
}
await app.listen({ host: '127.0.0.1', port: 0 });
const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

/** The statuses the API answered, as the SDK's fetch saw them (before the ETag cache rewrites a 304). */
const seen: Array<{ url: string; status: number; ifNoneMatch: string | null }> = [];
const recordingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request);
  seen.push({ url: request.url, status: response.status, ifNoneMatch: request.headers.get('if-none-match') });
  return response;
};
const client = createNewsroomClient({ baseUrl, apiKey, fetch: recordingFetch });

describe('the SDK against a running API', () => {
  it('reads a page of articles, typed', async () => {
    const page = await unwrap(client.api.GET('/api/v1/client/posts', { params: { query: { limit: 5 } } }));
    expect(page.data.map((article) => article.slug)).toEqual([
      'story-1',
      'story-2',
      'story-3',
      'story-4',
      'story-5',
    ]);
    expect(page.meta.pagination).toMatchObject({
      page: 1,
      limit: 5,
      total: 45,
      pages: 9,
      next: 2,
      prev: null,
    });
  });

  it('reads one article by slug, and turns a 404 into NewsroomApiError with the error code', async () => {
    const article = await unwrap(
      client.api.GET('/api/v1/client/article/{slug}', { params: { path: { slug: 'story-3' } } }),
    );
    expect(article).toMatchObject({ slug: 'story-3', isAggregated: true, hostSites: ['metro'] });
    const missing = unwrap(
      client.api.GET('/api/v1/client/article/{slug}', { params: { path: { slug: 'nope' } } }),
    );
    await expect(missing).rejects.toBeInstanceOf(NewsroomApiError);
    await expect(missing).rejects.toMatchObject({ status: 404, body: { code: 'ARTICLE_NOT_FOUND' } });

    const whole = await client.article('story-3');
    expectTypeOf(whole).toEqualTypeOf<ClientArticle>();
    expect(whole).toMatchObject({ slug: 'story-3', hostSites: ['metro'] });
    const sparse = await client.article('story-3', { fields: ['slug', 'title'] });
    expectTypeOf(sparse).toEqualTypeOf<Pick<ClientArticle, 'slug' | 'title'>>();
    expect(Object.keys(sparse)).toEqual(['title', 'slug']);
    await expect(client.article('nope')).rejects.toMatchObject({ status: 404 });
  });

  it('reads a draft by preview token, never from its ETag cache, and a revoked token is a 404', async () => {
    const draft = await insertArticle(db, { status: 'draft', slug: 'draft-preview', siteIds: [metro] });
    const { token, id } = await createPreviewLink(db, draft.id, { createdBy: null });
    seen.length = 0;
    const previewed = await client.preview(token);
    expectTypeOf(previewed).toEqualTypeOf<ClientArticle>();
    expect(previewed).toMatchObject({ id: draft.id, slug: 'draft-preview', hostSites: ['metro'] });
    expect(previewed.urls).toEqual({ metro: 'https://metro.example.com/news/draft-preview' });
    const forMetro = await client.preview(token, { site: 'metro' });
    expect(forMetro.url).toBe('https://metro.example.com/news/draft-preview');
    // no-store: the second read of the same URL was not revalidated from a remembered body.
    await client.preview(token);
    expect(seen.map(({ status, ifNoneMatch }) => [status, ifNoneMatch])).toEqual([
      [200, null],
      [200, null],
      [200, null],
    ]);
    await revokePreviewLink(db, draft.id, id);
    await expect(client.preview(token)).rejects.toMatchObject({
      status: 404,
      body: { code: 'PREVIEW_NOT_FOUND' },
    });
  });

  it('pages through every result of a list', async () => {
    seen.length = 0;
    const slugs: string[] = [];
    for await (const article of client.pages('/api/v1/client/posts', { limit: 10 })) slugs.push(article.slug);
    expect(slugs).toEqual(Array.from({ length: 45 }, (_, index) => `story-${index + 1}`));
    // Page 1, then by list cursor (after=), which no publication during the walk can shift.
    const params = seen.map(({ url }) => new URL(url).searchParams);
    expect(params.map((query) => query.get('page'))).toEqual(['1', null, null, null, null]);
    expect(params.slice(1).every((query) => query.get('after'))).toBe(true);
    const partners: string[] = [];
    for await (const article of client.pages('/api/v1/client/partner-articles')) partners.push(article.slug);
    expect(partners).toHaveLength(15);
  });

  it('asks for a sparse fieldset with fields: [...] and types the items with only those fields', async () => {
    const page = await client.page('/api/v1/client/posts', { limit: 2, fields: ['slug', 'title'] });
    expect(page.data).toEqual([
      { slug: 'story-1', title: expect.any(String) },
      { slug: 'story-2', title: expect.any(String) },
    ]);
    expect(page.meta.pagination.total).toBe(45);
    expectTypeOf(page.data[0]).toEqualTypeOf<Pick<ClientArticle, 'slug' | 'title'> | undefined>();
    // @ts-expect-error: body was not asked for
    page.data[0]?.body;

    const whole = await client.page('/api/v1/client/posts', { limit: 1 });
    expectTypeOf(whole.data[0]).toEqualTypeOf<ClientArticle | undefined>();
    expect(whole.data[0]).toHaveProperty('body');

    const ids: string[] = [];
    for await (const article of client.pages('/api/v1/client/partner-articles', { fields: ['id'] })) {
      expectTypeOf(article).toEqualTypeOf<Pick<ClientArticle, 'id'>>();
      expect(Object.keys(article)).toEqual(['id']);
      ids.push(article.id);
    }
    expect(ids).toHaveLength(15);
  });

  it('reuses a body by ETag: sends If-None-Match, gets 304, returns the remembered body', async () => {
    const query = { params: { query: { limit: 3, page: 2 } } } as const;
    seen.length = 0;
    const first = await unwrap(client.api.GET('/api/v1/client/posts', query));
    const second = await client.api.GET('/api/v1/client/posts', query);
    expect(seen.map(({ status }) => status)).toEqual([200, 304]);
    expect(seen[1]?.ifNoneMatch).toMatch(/^"/);
    expect(second.response.status).toBe(200);
    expect(second.response.headers.get('x-newsroom-sdk-cache')).toBe('revalidated');
    expect(second.data).toEqual(first);

    // A change gives a new ETag: the API answers 200 with the new body.
    await db.updateTable('articles').set({ title: 'Changed' }).where('slug', '=', 'story-4').execute();
    await expect
      .poll(async () => (await unwrap(client.api.GET('/api/v1/client/posts', query))).data[0]?.title, {
        timeout: 5_000,
      })
      .toBe('Changed');
    expect(seen.at(-1)?.status).toBe(200);
  });

  it('gives the feed and sitemap URLs, which answer with the key in the URL', async () => {
    const urls = client.syndicationUrls({ withKey: true });
    expect(urls.rss).toBe(`${baseUrl}/api/v1/client/feed.xml?api_key=${apiKey}`);
    const rss = await fetch(urls.rss);
    expect(rss.status).toBe(200);
    expect(rss.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
    await rss.text(); // read to the end: an unread body would break when the API closes
    const jsonFeed = await unwrap(client.api.GET('/api/v1/client/feed.json'));
    expect(jsonFeed.items).toHaveLength(45);
    expect(client.syndicationUrls().sitemap).toBe(`${baseUrl}/api/v1/client/sitemap.xml`);
  });
  it('walks a whole list once while articles are being published: no duplicate, no miss', async () => {
    const before: string[] = [];
    for await (const { slug } of client.pages('/api/v1/client/posts', { fields: ['slug'] }))
      before.push(slug);
    const walked: string[] = [];
    let published = 0;
    for await (const { slug } of client.pages('/api/v1/client/posts', { limit: 7, fields: ['slug'] })) {
      walked.push(slug);
      if (walked.length % 7 === 0) {
        published += 1;
        await insertArticle(db, { slug: `breaking-${published}`, siteIds: [metro], publishedAt: new Date() });
      }
    }
    expect(published).toBeGreaterThan(3);
    expect(walked).toEqual(before);
  });

  it('reads feeds and sitemaps as text, and pages() takes JSON lists only', async () => {
    const rss = await client.syndication('rss');
    expect(rss).toMatch(/^<\?xml[^>]*>\s*<rss/);
    expect(await client.syndication('sitemap')).toContain('<sitemapindex');
    expect(await client.syndication('sitemap', { page: 1 })).toContain('<urlset');
    expect(await client.syndication('newsSitemap')).toContain('<urlset');
    expect(JSON.parse(await client.syndication('jsonFeed'))).toMatchObject({
      version: expect.stringContaining('jsonfeed'),
    });
    await expect(client.syndication('sitemap', { page: 99 })).rejects.toMatchObject({
      status: 404,
      body: { code: 'SITEMAP_PAGE_NOT_FOUND' },
    });
    expectTypeOf<ReturnType<typeof client.syndication>>().toEqualTypeOf<Promise<string>>();
    // Checked by tsc (pnpm typecheck), never run: each would compile before and fail at run time.
    const typeOnly = () => {
      // @ts-expect-error: a feed is not a JSON list
      void client.pages('/api/v1/client/feed.xml');
      // @ts-expect-error: a sitemap is not a JSON list
      void client.page('/api/v1/client/sitemap.xml');
      // @ts-expect-error: /all is one unpaginated answer
      void client.pages('/api/v1/client/all');
      // @ts-expect-error: a walk chooses its own pages
      void client.pages('/api/v1/client/posts', { page: 2 });
    };
    void typeOnly;
  });
});

describe('originUrl: the API itself behind a failing edge', () => {
  it('asks the origin when the edge answers 502/503/504 or cannot be reached; other answers are final', async () => {
    // A stand-in edge whose backend is gone: it answers every request with the next status of the script.
    const statuses = [503, 502, 504, 404];
    const edgeRequests: string[] = [];
    const edge = createServer((request, response) => {
      edgeRequests.push(request.url ?? '');
      response.writeHead(statuses.shift() ?? 503, { 'content-type': 'application/json' }).end('{}');
    });
    edge.listen(0, '127.0.0.1');
    await once(edge, 'listening');
    const edgeUrl = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
    try {
      const reader = createNewsroomClient({ baseUrl: edgeUrl, originUrl: baseUrl, apiKey, etagCache: false });
      for (let n = 0; n < 3; n++) expect((await reader.article('story-1')).slug).toBe('story-1');
      // The edge's own 404 is an answer: not asked again.
      await expect(reader.article('story-1')).rejects.toBeInstanceOf(NewsroomApiError);
      expect(edgeRequests).toHaveLength(4);
    } finally {
      edge.closeAllConnections();
      edge.close();
      await once(edge, 'close');
    }
    // Nothing listening at all.
    const unreachable = createNewsroomClient({
      baseUrl: edgeUrl,
      originUrl: baseUrl,
      apiKey,
      etagCache: false,
    });
    expect((await unreachable.page('/api/v1/client/posts', { limit: 1 })).data).toHaveLength(1);
  });
});
