import { afterAll, describe, expect, it } from 'vitest';
import { followChanges } from '../support/change-feed-reader';
import { insertArticle, insertSite, issueSiteKey, minutesAgo } from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

// Every client article carries its canonical URL on the asking site (`url`), or for network-wide reads the
// URL on each host site (`urls`); cached bodies never carry one site's URL to another.
const { app, db, close } = await createTestApp();
afterAll(close);

const metro = await insertSite(db, 'metro');
const coast = await insertSite(db, 'coast');
const bare = await insertSite(db, 'bare');
await db
  .updateTable('sites')
  .set({ domain: 'metro.example.com', article_url_template: 'https://{domain}/news/{slug}' })
  .where('id', '=', metro)
  .execute();
await db
  .updateTable('sites')
  .set({ article_url_template: 'https://coast.example.org/a/{slug}.html' })
  .where('id', '=', coast)
  .execute();
const metroKey = (await issueSiteKey(db, metro)).key;
const coastKey = (await issueSiteKey(db, coast)).key;
const bareKey = (await issueSiteKey(db, bare)).key;
await insertArticle(db, { slug: 'shared-story', siteIds: [metro, coast, bare], publishedAt: minutesAgo(1) });
await insertArticle(db, { slug: 'metro-only', siteIds: [metro], publishedAt: minutesAgo(2) });

const get = (url: string, key: string) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });

const metroUrl = 'https://metro.example.com/news/shared-story';
const coastUrl = 'https://coast.example.org/a/shared-story.html';

describe('canonical URLs of client articles', () => {
  it('give a site key its own URL in lists, by slug and /all, twice (cached) and for each site apart', async () => {
    for (let round = 0; round < 2; round++) {
      for (const [key, url] of [
        [metroKey, metroUrl],
        [coastKey, coastUrl],
        [bareKey, null],
      ] as const) {
        const posts = (await get('/posts', key)).json();
        const shared = posts.data.find((a: { slug: string }) => a.slug === 'shared-story');
        expect(shared.url).toBe(url);
        expect(shared).not.toHaveProperty('urls');
        expect((await get('/article/shared-story', key)).json().url).toBe(url);
        expect((await get('/partner-articles', key)).statusCode).toBe(200);
        const all = (await get('/all', key)).json();
        expect(all.data.find((a: { slug: string }) => a.slug === 'shared-story').url).toBe(url);
      }
    }
  });

  it('give the network key a urls map of the host sites with a template, and url when it names a site', async () => {
    for (let round = 0; round < 2; round++) {
      const article = (await get('/article/shared-story', testApiKey)).json();
      expect(article.urls).toEqual({ metro: metroUrl, coast: coastUrl });
      expect(article).not.toHaveProperty('url');
      const page = (await get('/posts', testApiKey)).json();
      expect(page.data[0].urls).toEqual({ metro: metroUrl, coast: coastUrl });
      const named = (await get('/posts?site=coast', testApiKey)).json();
      expect(named.data[0]).toMatchObject({ slug: 'shared-story', url: coastUrl });
      expect(named.data[0]).not.toHaveProperty('urls');
    }
  });

  it('can be asked for alone with fields=', async () => {
    const page = (await get('/posts?fields=slug,url', metroKey)).json();
    expect(page.data).toEqual([
      { slug: 'shared-story', url: metroUrl },
      { slug: 'metro-only', url: 'https://metro.example.com/news/metro-only' },
    ]);
  });

  it('follow a template change at once, in every cached read, and the change feed reports it', async () => {
    const since = (await get('/changes', metroKey)).json().meta.next;
    expect((await get('/article/shared-story', metroKey)).json().url).toBe(metroUrl);
    await db
      .updateTable('sites')
      .set({ article_url_template: 'https://{domain}/story/{slug}' })
      .where('id', '=', metro)
      .execute();
    const moved = 'https://metro.example.com/story/shared-story';
    await expect.poll(async () => (await get('/article/shared-story', metroKey)).json().url).toBe(moved);
    const posts = (await get('/posts', metroKey)).json();
    expect(posts.data[0].url).toBe(moved);
    expect((await get('/article/shared-story', coastKey)).json().url).toBe(coastUrl);
    const { items } = await followChanges((url) => get(url, metroKey), since, { expected: 2 });
    const upsert = items.find((item) => item.slug === 'shared-story');
    expect(upsert?.article).toMatchObject({ url: moved });
  });
});
