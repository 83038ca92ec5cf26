import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDashboardUsers, insertImportedArticle } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

// Issue 26, reversible review: a decision can be taken back (back-to-pending), and approve and reject carry an
// optional reason that the publisher sees.

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken, publisherId, publisherToken } = await createDashboardUsers(testApp);

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, token = adminToken) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const put = (action: string, id: string, payload?: unknown) =>
  call('PUT', `/api/v1/article/${action}/${id}`, payload);

/** The outbox row the article's last write left, with whether it was written by that same transaction. */
async function lastChange(id: string) {
  const { rows } = await sql<{ visible_before: boolean; visible_after: boolean; same_transaction: boolean }>`
    select c.visible_before, c.visible_after, c.xid::text = (select xmin::text from articles where id = ${id}) as same_transaction
      from article_changes c where c.article_id = ${id} order by c.xid desc limit 1`.execute(db);
  return rows[0];
}

describe('back to pending', () => {
  it('takes a rejection back: the article is pending and in the queue again, the reason gone', async () => {
    const article = await insertImportedArticle(testApp, publisherId, 'Rejected too fast');
    const rejected = await put('reject', article.id, { reason: '  Duplicate of an earlier story ' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({
      status: 'rejected',
      reviewReason: 'Duplicate of an earlier story',
      reviewedAt: expect.any(String),
    });

    const back = await put('back-to-pending', article.id);
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({
      status: 'pending',
      reviewReason: null,
      reviewedAt: null,
      publishedAt: null,
    });
    expect(back.headers.etag).toMatch(/^"\d+"$/);
    const queue = (await call('GET', '/api/v1/article/pending')).json();
    expect(queue.data.map((a: { id: string }) => a.id)).toContain(article.id);
  });

  it('takes an approval back: unpublished in the same transaction as the change feed records it', async () => {
    const article = await insertImportedArticle(testApp, publisherId, 'Approved too fast');
    expect((await put('approve', article.id)).json()).toMatchObject({
      status: 'published',
      reviewReason: null,
    });
    expect(await lastChange(article.id)).toMatchObject({ visible_before: false, visible_after: true });

    const back = await put('back-to-pending', article.id);
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ status: 'pending', publishedAt: null, reviewedAt: null });
    // The outbox (client change feed, webhooks' article.unpublished) has it, written by the same transaction.
    expect(await lastChange(article.id)).toEqual({
      visible_before: true,
      visible_after: false,
      same_transaction: true,
    });
    // And it can be decided again.
    expect((await put('approve', article.id)).json().status).toBe('published');
  });

  it('refuses articles no review decided, with 409 and nothing changed', async () => {
    const manual = (await call('POST', '/api/v1/article', { title: 'A manual story' })).json();
    expect((await put('back-to-pending', manual.id)).json()).toMatchObject({
      code: 'INVALID_TRANSITION',
      message: 'Cannot back-to-pending an article that is draft',
    });
    await put('publish', manual.id);
    const published = await put('back-to-pending', manual.id);
    expect(published.statusCode).toBe(409);
    expect(published.json().message).toBe(
      'Cannot move an article back to pending unless it was approved or rejected in review',
    );

    const autoApproved = await insertImportedArticle(testApp, publisherId, 'Auto-approved', 'published');
    expect((await put('back-to-pending', autoApproved.id)).statusCode).toBe(409);
    const pending = await insertImportedArticle(testApp, publisherId, 'Still pending');
    expect((await put('back-to-pending', pending.id)).statusCode).toBe(409);

    // Approved, then unpublished and published by hand: no longer the review's doing.
    const republished = await insertImportedArticle(testApp, publisherId, 'Republished');
    await put('approve', republished.id, { reason: 'Fine' });
    expect((await put('unpublish', republished.id)).json()).toMatchObject({
      reviewReason: null,
      reviewedAt: null,
    });
    await put('publish', republished.id);
    expect((await put('back-to-pending', republished.id)).statusCode).toBe(409);
    expect((await call('GET', `/api/v1/article/${republished.id}`)).json().status).toBe('published');
  });

  it('answers 404 for an unknown article', async () => {
    const response = await put('back-to-pending', '00000000-0000-4000-8000-000000000000');
    expect(response.statusCode).toBe(404);
  });

  it('moves many back in one bulk request, one result each', async () => {
    const a = await insertImportedArticle(testApp, publisherId, 'Bulk one');
    const b = await insertImportedArticle(testApp, publisherId, 'Bulk two');
    await call('POST', '/api/v1/article/bulk', { action: 'approve', ids: [a.id, b.id] });
    const response = await call('POST', '/api/v1/article/bulk', {
      action: 'back-to-pending',
      ids: [a.id, b.id],
    });
    expect(response.json().results).toEqual([
      { id: a.id, ok: true, status: 'pending' },
      { id: b.id, ok: true, status: 'pending' },
    ]);
  });
});

describe('the reason of a decision', () => {
  it('is optional: no body, an empty JSON body and {} all work as before', async () => {
    for (const payload of [undefined, {}, { reason: null }, { reason: '   ' }]) {
      const article = await insertImportedArticle(testApp, publisherId, 'No reason');
      const response = await put('reject', article.id, payload);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ status: 'rejected', reviewReason: null });
    }
    const article = await insertImportedArticle(testApp, publisherId, 'Empty JSON body');
    const response = await app.inject({
      method: 'PUT',
      url: `/api/v1/article/approve/${article.id}`,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('is bounded and typed: 400 in the house shape, nothing changed', async () => {
    const article = await insertImportedArticle(testApp, publisherId, 'Long reason');
    for (const payload of [{ reason: 'x'.repeat(501) }, { reason: 5 }, { why: 'no' }]) {
      const response = await put('reject', article.id, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    expect((await put('reject', article.id, { reason: 'x'.repeat(500) })).statusCode).toBe(200);
    // The other transitions take no reason.
    expect((await put('back-to-pending', article.id, { reason: 'Because' })).statusCode).toBe(400);
    const bulk = await call('POST', '/api/v1/article/bulk', {
      action: 'back-to-pending',
      ids: [article.id],
      reason: 'Because',
    });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json().code).toBe('INVALID_REVIEW_REASON');
    expect((await call('GET', `/api/v1/article/${article.id}`)).json().status).toBe('rejected');
  });

  it('is shown to the publisher with its articles, and in bulk decisions', async () => {
    const approved = await insertImportedArticle(testApp, publisherId, 'Approved with a note');
    const rejected = await insertImportedArticle(testApp, publisherId, 'Rejected in bulk');
    await put('approve', approved.id, { reason: 'Great local angle' });
    const bulk = await call('POST', '/api/v1/article/bulk', {
      action: 'reject',
      ids: [rejected.id],
      reason: 'Press release, not news',
    });
    expect(bulk.json().results).toEqual([{ id: rejected.id, ok: true, status: 'rejected' }]);

    const own = await call('GET', '/api/v1/publisher/me/articles?limit=100', undefined, publisherToken);
    expect(own.statusCode).toBe(200);
    const byId = new Map(own.json().data.map((a: { id: string }) => [a.id, a]));
    expect(byId.get(approved.id)).toMatchObject({
      status: 'published',
      reviewReason: 'Great local angle',
      reviewedAt: expect.any(String),
    });
    expect(byId.get(rejected.id)).toMatchObject({
      status: 'rejected',
      reviewReason: 'Press release, not news',
    });
    // Administrators read it in the list and on the article.
    const list = (await call('GET', '/api/v1/article?status=rejected&limit=100')).json();
    expect(list.data.find((a: { id: string }) => a.id === rejected.id).reviewReason).toBe(
      'Press release, not news',
    );
  });
});

describe('the OpenAPI document', () => {
  it('lists back-to-pending and the optional reason body of approve and reject', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(doc.paths['/api/v1/article/back-to-pending/{id}'].put.operationId).toBe(
      'moveArticleBackToPending',
    );
    for (const action of ['approve', 'reject']) {
      const body = doc.paths[`/api/v1/article/${action}/{id}`].put.requestBody;
      expect(body.required).toBe(false);
      expect(body.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ReviewDecision',
      });
    }
    expect(doc.components.schemas.ReviewDecision.properties.reason).toBeDefined();
    expect(doc.components.schemas.Article.properties).toHaveProperty('reviewReason');
  });
});
