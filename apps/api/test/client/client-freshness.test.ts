import { changeArticleStatus, deleteArticle, editArticle, replaceArticleSites } from '@newsroom/domain';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import {
  insertArticle,
  insertSite,
  issueSiteKey,
  minutesAgo,
  retitleWithoutTriggers,
} from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

const { app, db, close } = await createTestApp();
afterAll(close);

const alpha = await insertSite(db, 'alpha');
const beta = await insertSite(db, 'beta');
const alphaKey = (await issueSiteKey(db, alpha)).key;
await insertArticle(db, { slug: 'old-news', siteIds: [alpha], publishedAt: minutesAgo(60) });

const get = (url: string, key = alphaKey) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });
const postSlugs = async (url = '/posts', key = alphaKey) =>
  (await get(url, key)).json().data.map((article: { slug: string }) => article.slug);
/** The guarantee: a change is visible within about a second (in practice, milliseconds). */
const soon = { timeout: 1_000, interval: 20 };

/** Primes the caches (two reads), then proves the cached answer is what is being served. */
async function primed(url = '/posts') {
  const before = await get(url);
  expect((await get(url)).body).toBe(before.body);
  return before.body;
}

describe('the response cache', () => {
  it('serves repeat reads from memory: a change that bypasses the triggers stays unseen', async () => {
    await primed();
    await retitleWithoutTriggers(db, 'old-news', 'Silently changed');
    expect((await get('/posts')).body).not.toContain('Silently changed');
    // Any notified change empties the caches.
    await db.updateTable('sites').set({ name: 'Alpha' }).where('id', '=', alpha).execute();
    await expect.poll(async () => (await get('/posts')).body, soon).toContain('Silently changed');
  });
});

describe('invalidation on every change that alters a response', () => {
  it('shows a publish right after it (dashboard domain function)', async () => {
    const draft = await insertArticle(db, { slug: 'fresh-draft', status: 'draft', siteIds: [alpha] });
    await primed();
    expect((await get('/article/fresh-draft')).statusCode).toBe(404);
    await changeArticleStatus(db, draft.id, 'publish');
    await expect.poll(() => postSlugs(), soon).toContain('fresh-draft');
    await expect.poll(async () => (await get('/article/fresh-draft')).statusCode, soon).toBe(200);
    expect((await postSlugs())[0]).toBe('fresh-draft');
  });

  it('hides an unpublished article', async () => {
    const article = await insertArticle(db, { slug: 'to-unpublish', siteIds: [alpha] });
    await expect.poll(() => postSlugs(), soon).toContain('to-unpublish');
    expect((await get('/article/to-unpublish')).statusCode).toBe(200);
    await changeArticleStatus(db, article.id, 'unpublish');
    await expect.poll(() => postSlugs(), soon).not.toContain('to-unpublish');
    await expect.poll(async () => (await get('/article/to-unpublish')).statusCode, soon).toBe(404);
  });

  it('shows an edit', async () => {
    const article = await insertArticle(db, { slug: 'to-edit', siteIds: [alpha] });
    await expect.poll(async () => (await get('/article/to-edit')).statusCode, soon).toBe(200);
    await primed('/article/to-edit');
    await editArticle(db, article.id, { title: 'Edited title' });
    await expect.poll(async () => (await get('/article/to-edit')).json().title, soon).toBe('Edited title');
  });

  it('drops a deleted article', async () => {
    const article = await insertArticle(db, { slug: 'to-delete', siteIds: [alpha] });
    await expect.poll(() => postSlugs(), soon).toContain('to-delete');
    await deleteArticle(db, article.id);
    await expect.poll(() => postSlugs(), soon).not.toContain('to-delete');
    await expect.poll(async () => (await get('/article/to-delete')).statusCode, soon).toBe(404);
  });

  it('follows a host-site change in both directions', async () => {
    const article = await insertArticle(db, { slug: 'moving', siteIds: [beta] });
    await primed();
    expect(await postSlugs()).not.toContain('moving');
    await db.transaction().execute((tx) => replaceArticleSites(tx, article.id, [alpha]));
    await expect.poll(() => postSlugs(), soon).toContain('moving');
    await expect.poll(async () => (await get('/article/moving')).json().hostSites, soon).toEqual(['alpha']);
    await db.transaction().execute((tx) => replaceArticleSites(tx, article.id, [beta]));
    await expect.poll(() => postSlugs(), soon).not.toContain('moving');
    expect((await get('/article/moving')).statusCode).toBe(404);
  });

  it('shows an article inserted directly, as the feed worker does', async () => {
    await primed('/partner-articles');
    await insertArticle(db, { slug: 'imported', siteIds: [alpha], aggregated: true });
    await expect.poll(() => postSlugs('/partner-articles'), soon).toContain('imported');
  });

  it('follows a site rename in hostSites and ?site=', async () => {
    await expect.poll(() => postSlugs('/posts?site=alpha', testApiKey), soon).toContain('old-news');
    await db.updateTable('sites').set({ slug: 'alpha-renamed' }).where('id', '=', alpha).execute();
    await expect.poll(async () => (await get('/posts?site=alpha', testApiKey)).statusCode, soon).toBe(400);
    expect((await get('/article/old-news')).json().hostSites).toEqual(['alpha-renamed']);
    await db.updateTable('sites').set({ slug: 'alpha' }).where('id', '=', alpha).execute();
    await expect.poll(async () => (await get('/posts?site=alpha', testApiKey)).statusCode, soon).toBe(200);
  });

  it('changes the /all ETag when content changes', async () => {
    const etag = (await get('/all')).headers.etag;
    expect((await get('/all')).headers.etag).toBe(etag);
    await insertArticle(db, { slug: 'for-all', siteIds: [alpha] });
    await expect.poll(async () => (await get('/all')).headers.etag, soon).not.toBe(etag);
  });
});

describe('when the change feed connection drops', () => {
  const listenerPid = async () =>
    (
      await sql<{ pid: number }>`select pid from pg_stat_activity
        where application_name = 'newsroom-api-changes' and datname = current_database()`.execute(db)
    ).rows[0]?.pid;

  it('reconnects and starts from an empty cache (changes missed meanwhile are seen)', async () => {
    await primed();
    await retitleWithoutTriggers(db, 'old-news', 'Missed while disconnected');
    expect((await get('/posts')).body).not.toContain('Missed while disconnected');
    const pid = await listenerPid();
    expect(pid).toBeDefined();
    await sql`select pg_terminate_backend(${pid})`.execute(db);
    await expect.poll(async () => (await get('/posts')).body, soon).toContain('Missed while disconnected');
    await expect.poll(listenerPid, { timeout: 5_000 }).not.toBe(pid);
    await expect.poll(listenerPid, { timeout: 5_000 }).toBeDefined();
    // Cached again once it is back.
    await primed();
    await retitleWithoutTriggers(db, 'old-news', 'Unseen after reconnect');
    expect((await get('/posts')).body).not.toContain('Unseen after reconnect');
  });
});

describe('with Redis down', () => {
  it('keeps serving client reads from Postgres', async () => {
    const down = await createTestApp({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const site = await insertSite(down.db, 'solo');
      const key = (await issueSiteKey(down.db, site)).key;
      const draft = await insertArticle(down.db, { slug: 'solo-news', status: 'draft', siteIds: [site] });
      const read = (url: string) =>
        down.app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });
      expect((await read('/posts')).json().data).toEqual([]);
      await changeArticleStatus(down.db, draft.id, 'publish');
      await expect.poll(async () => (await read('/posts')).json().data.length, soon).toBe(1);
      for (const url of ['/partner-articles', '/article/solo-news', '/all']) {
        expect((await read(url)).statusCode, url).toBe(200);
      }
    } finally {
      await down.close();
    }
  });
});
