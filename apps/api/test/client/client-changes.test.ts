import { changeArticleStatus, pruneArticleChanges, setArticleHostSites } from '@newsroom/domain';
import { createFeedImportQueue, createRedisConnection } from '@newsroom/queue';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app';
import { encodeCursor } from '../../src/delivery/changes/change-cursor';
import { type ChangesPage, followChanges } from '../support/change-feed-reader';
import { insertArticle, insertSite, issueSiteKey } from '../support/content-fixtures';
import { createTestApp, testApiKey } from '../support/test-app';

// A test waits (bounded) while another session's open transaction holds the feed back: see the waits below.
vi.setConfig({ testTimeout: 120_000 });
const { app, db, config, close } = await createTestApp();
afterAll(close);

const alpha = await insertSite(db, 'alpha');
const beta = await insertSite(db, 'beta');
const alphaKey = (await issueSiteKey(db, alpha)).key;
const betaKey = (await issueSiteKey(db, beta)).key;

const get = (url: string, key: string = testApiKey) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });

async function cursorNow(key: string = testApiKey): Promise<string> {
  const response = await get('/changes', key);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as ChangesPage;
  expect(body).toMatchObject({ data: [], meta: { hasMore: false } });
  return body.meta.next;
}

/** Every change after `since` for `key`, once the feed has caught up with `expected` items (bounded wait). */
const changesSince = (since: string, ids: string[], key: string = testApiKey, expected = 1, query = '') =>
  followChanges((url) => get(url, key), since, { expected, ids, query });

describe('GET /client/changes', () => {
  it('answers a cursor for now without since, and nothing after it until something changes', async () => {
    const since = await cursorNow();
    const response = await get(`/changes?since=${since}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.json()).toEqual({ data: [], meta: { next: expect.any(String), hasMore: false } });
    // Caught up, the same cursor gives the same body: a conditional poll answers 304.
    const again = await app.inject({
      method: 'GET',
      url: `/api/v1/client/changes?since=${since}`,
      headers: { 'x-api-key': testApiKey, 'if-none-match': response.headers.etag as string },
    });
    expect([200, 304]).toContain(again.statusCode);
    if (again.statusCode === 200) expect(again.headers.etag).not.toBe(response.headers.etag);
  });

  it('serves upserts with the article as /client/article/:slug returns it, then a delete when it leaves', async () => {
    const since = await cursorNow(alphaKey);
    const { id, slug } = await insertArticle(db, { slug: 'feed-upsert', siteIds: [alpha] });
    const { items, next } = await changesSince(since, [id], alphaKey);
    const article = (await get(`/article/${slug}`, alphaKey)).json();
    expect(items).toEqual([{ cursor: expect.any(String), type: 'upsert', id, slug, article }]);

    await changeArticleStatus(db, id, 'unpublish');
    const after = await changesSince(next, [id], alphaKey);
    expect(after.items).toEqual([{ cursor: expect.any(String), type: 'delete', id, slug }]);
  });

  it("never shows a site key another site's articles, and a move off its site is a delete", async () => {
    const alphaSince = await cursorNow(alphaKey);
    const betaSince = await cursorNow(betaKey);
    const onBeta = await insertArticle(db, { slug: 'beta-only', siteIds: [beta] });
    const moving = await insertArticle(db, { slug: 'moving', siteIds: [alpha] });
    await setArticleHostSites(db, moving.id, ['beta']);

    const ids = [onBeta.id, moving.id];
    const forAlpha = await changesSince(alphaSince, ids, alphaKey);
    expect(forAlpha.items.map(({ type, slug }) => [type, slug])).toEqual([['delete', 'moving']]);
    expect(JSON.stringify(forAlpha.pages)).not.toContain('beta-only');
    const forBeta = await changesSince(betaSince, ids, betaKey, 2);
    expect(forBeta.items.map(({ type, slug }) => [type, slug])).toEqual([
      ['upsert', 'beta-only'],
      ['upsert', 'moving'],
    ]);
    expect(forBeta.items[0]?.id).toBe(onBeta.id);
    // The network key narrowed to alpha sees what alpha's key sees.
    const narrowed = await changesSince(alphaSince, ids, testApiKey, 1, '&site=alpha');
    expect(narrowed.items.map(({ type, slug }) => [type, slug])).toEqual([['delete', 'moving']]);
    expect((await get(`/changes?since=${alphaSince}&site=alpha`, betaKey)).statusCode).toBe(403);
  });

  it('shows nothing of a transaction until it commits', async () => {
    const since = await cursorNow();
    const writer = new pg.Client({ connectionString: config.databaseUrl });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query(
        `insert into articles (title, slug, status, published_at) values ('Uncommitted', 'uncommitted', 'published', now())`,
      );
      const whileOpen = (await get(`/changes?since=${since}`)).json() as ChangesPage;
      expect(whileOpen.data.map((item) => item.slug)).not.toContain('uncommitted');
      await writer.query('commit');
    } finally {
      await writer.end();
    }
    const { items } = await followChanges(get, since, { expected: 1 });
    expect(items.map((item) => item.slug)).toContain('uncommitted');
  });

  it('pages by limit, with hasMore until the last page', async () => {
    // After every change so far (a "now" cursor may replay recent ones while another session's transaction is
    // open on the shared server), so the pages hold exactly this test's changes.
    const last = await db
      .selectFrom('article_changes')
      .select(sql<string>`max(xid)::text`.as('xid'))
      .executeTakeFirstOrThrow();
    const from = encodeCursor({ xid: last.xid, articleId: 'ffffffff-ffff-ffff-ffff-ffffffffffff' });
    const ids: string[] = [];
    for (const n of [1, 2, 3])
      ids.push((await insertArticle(db, { slug: `paged-${n}`, siteIds: [beta] })).id);
    await changesSince(from, ids, betaKey, 3);
    const first = (await get(`/changes?since=${from}&limit=2`, betaKey)).json() as ChangesPage;
    expect(first.data.map((item) => item.slug)).toEqual(['paged-1', 'paged-2']);
    expect(first.meta.hasMore).toBe(true);
    const second = (await get(`/changes?since=${first.meta.next}&limit=2`, betaKey)).json() as ChangesPage;
    expect(second.data.map((item) => item.slug)).toEqual(['paged-3']);
    expect(second.meta.hasMore).toBe(false);
    // An item's own cursor reads on from that item.
    const fromItem = (await get(`/changes?since=${first.data[0]?.cursor}`, betaKey)).json() as ChangesPage;
    expect(fromItem.data.map((item) => item.slug)).toEqual(['paged-2', 'paged-3']);
  });

  it('keeps its cursors across an API restart', async () => {
    const since = await cursorNow();
    const { id } = await insertArticle(db, { slug: 'after-restart', siteIds: [alpha] });
    const redis = createRedisConnection(config.redis.url, 'producer');
    const queue = createFeedImportQueue({ connection: redis, prefix: config.redis.queuePrefix });
    const restarted = await buildApp({ config, db, redis, feedImportQueue: queue });
    try {
      const read = (url: string) =>
        restarted.inject({
          method: 'GET',
          url: `/api/v1/client${url}`,
          headers: { 'x-api-key': testApiKey },
        });
      const { items } = await followChanges(read, since, { expected: 1, ids: [id] });
      expect(items.map((item) => item.slug)).toEqual(['after-restart']);
    } finally {
      await restarted.close();
      await queue.close();
      redis.disconnect();
    }
  });

  it('refuses a cursor that is not ours with 400, and a bad limit', async () => {
    for (const since of ['nonsense!', 'bm9uc2Vuc2U', Buffer.from('1:12:not-a-uuid').toString('base64url')]) {
      const response = await get(`/changes?since=${encodeURIComponent(since)}`);
      expect(response.statusCode, since).toBe(400);
      expect(response.json()).toMatchObject({
        code: since === 'nonsense!' ? 'INVALID_CURSOR' : 'INVALID_CURSOR',
      });
    }
    expect((await get('/changes?limit=0')).statusCode).toBe(400);
    expect((await get('/changes?limit=501')).statusCode).toBe(400);
    expect((await get('/changes?unknown=1')).statusCode).toBe(400);
  });

  it('answers 410 with what to do for a cursor past retention', async () => {
    const since = await cursorNow();
    const { id } = await insertArticle(db, { slug: 'soon-forgotten', siteIds: [alpha] });
    await changesSince(since, [id]);
    await sql`update article_changes set changed_at = now() - interval '40 days' where article_id = ${id}`.execute(
      db,
    );
    const olderThan = new Date(Date.now() - config.changeFeed.retentionDays * 86_400_000);
    expect(await pruneArticleChanges(db, olderThan)).toBeGreaterThan(0);
    const response = await get(`/changes?since=${since}`);
    expect(response.statusCode).toBe(410);
    expect(response.json()).toMatchObject({ statusCode: 410, code: 'CURSOR_EXPIRED' });
    expect(response.json().message).toContain('/client/all');
    // A fresh cursor works again.
    expect((await get(`/changes?since=${await cursorNow()}`)).statusCode).toBe(200);
  });

  it('needs a key like every client route', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/client/changes' });
    expect(response.statusCode).toBe(401);
  });
});
