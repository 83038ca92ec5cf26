import type { ArticleStatus } from '@newsroom/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertPublisher, type PublisherAccount } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';

const { app, db, close } = await createTestApp();
afterAll(close);

const me = (account: PublisherAccount, method: 'GET' | 'PUT', path = '', payload?: object) =>
  app.inject({
    method,
    url: `/api/v1/publisher/me${path}`,
    headers: bearer(account.token),
    ...(payload && { payload }),
  });

let articleNumber = 0;
async function insertArticle(publisherId: string, status: ArticleStatus, createdAt: Date) {
  const n = ++articleNumber;
  const { id } = await db
    .insertInto('articles')
    .values({
      title: `Story ${n}`,
      slug: `story-${n}`,
      body: 'secret body text',
      status,
      is_aggregated: true,
      source: 'Feed',
      source_url: `https://feed.example/${n}`,
      rss_feed_guid: `g-${n}`,
      publisher_id: publisherId,
      published_at: status === 'published' ? createdAt : null,
      created_at: createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

const alpha = await insertPublisher(app, db, { name: 'Alpha' });
const beta = await insertPublisher(app, db, { name: 'Beta' });

describe('GET /api/v1/publisher/me', () => {
  it("returns the caller's own record only", async () => {
    const a = await me(alpha, 'GET');
    const b = await me(beta, 'GET');
    expect(a.statusCode).toBe(200);
    expect(a.json()).toMatchObject({ id: alpha.publisherId, name: 'Alpha', email: alpha.email });
    expect(b.json()).toMatchObject({ id: beta.publisherId, name: 'Beta' });
  });

  it('ignores any id a publisher tries to slip in', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1/publisher/me?id=${beta.publisherId}`,
      headers: bearer(alpha.token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(alpha.publisherId);
  });
});

describe('PUT /api/v1/publisher/me/feed', () => {
  it('saves the feed address and tidied default tags, on its own record only', async () => {
    const response = await me(alpha, 'PUT', '/feed', {
      feedUrl: 'https://alpha.example/rss.xml',
      defaultTags: ['  Local ', 'local', 'News', ''],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: alpha.publisherId,
      feedUrl: 'https://alpha.example/rss.xml',
      defaultTags: ['Local', 'News'],
    });
    expect((await me(beta, 'GET')).json()).toMatchObject({ feedUrl: null, defaultTags: [] });
  });

  it('keeps the default tags when only the address is sent, and removes the feed with null', async () => {
    await me(alpha, 'PUT', '/feed', { feedUrl: 'https://alpha.example/a.xml', defaultTags: ['kept'] });
    expect((await me(alpha, 'PUT', '/feed', { feedUrl: 'http://alpha.example/b.xml' })).json()).toMatchObject(
      {
        feedUrl: 'http://alpha.example/b.xml',
        defaultTags: ['kept'],
      },
    );
    expect((await me(alpha, 'PUT', '/feed', { feedUrl: null })).json().feedUrl).toBeNull();
  });

  it('clears the fetch state of the old address when the address changes', async () => {
    await me(beta, 'PUT', '/feed', { feedUrl: 'https://beta.example/old.xml' });
    await db
      .updateTable('publishers')
      .set({ etag: '"v1"', last_modified: 'yesterday', last_error: 'HTTP 404', consecutive_failures: 3 })
      .where('id', '=', beta.publisherId)
      .execute();
    const same = await me(beta, 'PUT', '/feed', {
      feedUrl: 'https://beta.example/old.xml',
      defaultTags: ['x'],
    });
    expect(same.json()).toMatchObject({ lastError: 'HTTP 404', consecutiveFailures: 3 });
    const moved = await me(beta, 'PUT', '/feed', { feedUrl: 'https://beta.example/new.xml' });
    expect(moved.json()).toMatchObject({ lastError: null, consecutiveFailures: 0, lastFetchedAt: null });
    const row = await db
      .selectFrom('publishers')
      .select(['etag', 'last_modified'])
      .where('id', '=', beta.publisherId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ etag: null, last_modified: null });
  });

  it.each([
    ['a file: URL', { feedUrl: 'file:///etc/passwd' }, 'VALIDATION_ERROR'],
    ['a javascript: URL', { feedUrl: 'javascript:alert(1)' }, 'VALIDATION_ERROR'],
    ['an ftp URL', { feedUrl: 'ftp://alpha.example/feed' }, 'VALIDATION_ERROR'],
    ['not a URL', { feedUrl: 'http://' }, 'INVALID_FEED_URL'],
    ['a URL with credentials', { feedUrl: 'https://user:pw@alpha.example/feed' }, 'INVALID_FEED_URL'],
    ['an over-long URL', { feedUrl: `https://alpha.example/${'a'.repeat(2100)}` }, 'VALIDATION_ERROR'],
    ['a missing feedUrl', { defaultTags: ['x'] }, 'VALIDATION_ERROR'],
    [
      'too many tags',
      { feedUrl: null, defaultTags: Array.from({ length: 31 }, (_, i) => `t${i}`) },
      'VALIDATION_ERROR',
    ],
    ['an unknown property', { feedUrl: null, approved: true }, 'VALIDATION_ERROR'],
  ])('refuses %s with 400', async (_name, body, code) => {
    const response = await me(alpha, 'PUT', '/feed', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe(code);
  });
});

describe('GET /api/v1/publisher/me/articles', () => {
  const alphaIds: string[] = [];

  it('lists only its own articles, newest first, with counts by status', async () => {
    const statuses: ArticleStatus[] = ['published', 'pending', 'pending', 'rejected', 'published'];
    for (const [i, status] of statuses.entries()) {
      alphaIds.push(await insertArticle(alpha.publisherId, status, new Date(Date.UTC(2026, 0, 1 + i))));
    }
    const betaId = await insertArticle(beta.publisherId, 'pending', new Date(Date.UTC(2026, 5, 1)));

    const response = await me(alpha, 'GET', '/articles?limit=2');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.data.map((a: { id: string }) => a.id)).toEqual([alphaIds[4], alphaIds[3]]);
    expect(body.meta.pagination).toMatchObject({ page: 1, limit: 2, total: 5, pages: 3, next: 2 });
    expect(body.meta.counts).toEqual({ draft: 0, pending: 2, published: 2, rejected: 1, total: 5 });
    expect(body.data[0]).toMatchObject({
      title: 'Story 5',
      slug: 'story-5',
      status: 'published',
      sourceUrl: 'https://feed.example/5',
      publishedAt: '2026-01-05T00:00:00.000Z',
      createdAt: '2026-01-05T00:00:00.000Z',
    });
    expect(body.data[0]).not.toHaveProperty('body');

    const everything = (await me(alpha, 'GET', '/articles?limit=100')).json();
    expect(everything.data.map((a: { id: string }) => a.id)).not.toContain(betaId);
    const betaList = (await me(beta, 'GET', '/articles')).json();
    expect(betaList.data.map((a: { id: string }) => a.id)).toEqual([betaId]);
    expect(betaList.meta.counts.total).toBe(1);
  });

  it('filters by status', async () => {
    const body = (await me(alpha, 'GET', '/articles?status=pending')).json();
    expect(body.data.map((a: { id: string }) => a.id)).toEqual([alphaIds[2], alphaIds[1]]);
    expect(body.meta.pagination.total).toBe(2);
  });

  it.each(['?status=deleted', '?limit=1000', '?page=-1', '?publisherId=x'])(
    'refuses %s with 400',
    async (q) => {
      expect((await me(alpha, 'GET', `/articles${q}`)).statusCode).toBe(400);
    },
  );
});
