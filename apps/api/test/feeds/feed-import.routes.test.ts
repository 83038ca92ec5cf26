import { readFeedFixture, startFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { insertAdmin, insertPublisher as insertPublisherAccount } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

const { app, db, close } = await createTestApp({ env: { FEED_ALLOW_PRIVATE_ADDRESSES: 'true' } });
const server = await startFeedServer({
  '/guardian.rss': { body: readFeedFixture('guardian.rss') },
  '/not-a-feed': { body: readFeedFixture('unrecognized.rss'), contentType: 'text/html' },
});
afterAll(async () => {
  await app.feedImportQueue?.obliterate({ force: true });
  await close();
  await server.close();
});

const insertPublisher = async (
  values: { feedUrl?: string | null; approved?: boolean; autoApprove?: boolean } = {},
) =>
  (
    await db
      .insertInto('publishers')
      .values({
        name: 'The Guardian',
        feed_url: values.feedUrl === undefined ? server.url('/guardian.rss') : values.feedUrl,
        approved: values.approved ?? true,
        auto_approve: values.autoApprove ?? false,
        default_tags: ['UK'],
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
const adminToken = (await insertAdmin(app, db)).token;
const publisherAccount = await insertPublisherAccount(app, db, { name: 'The Guardian', approved: true });
const ownPublisher = publisherAccount.publisherId;
const publisherToken = publisherAccount.token;
await db
  .updateTable('publishers')
  .set({ feed_url: server.url('/guardian.rss'), auto_approve: true, default_tags: ['UK'] })
  .where('id', '=', ownPublisher)
  .execute();
const post = (url: string, token: string, payload?: object) =>
  app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });

const snapshotState = async () => ({
  articles: await db
    .selectFrom('articles')
    .select(({ fn }) => fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow(),
  publishers: await db
    .selectFrom('publishers')
    .select(['id', 'etag', 'last_modified', 'last_fetched_at', 'last_error', 'consecutive_failures'])
    .orderBy('id')
    .execute(),
});

describe('POST /api/v1/publisher/:id/import', () => {
  it('queues a fetch and answers 202 with the job id; repeated clicks do not pile up', async () => {
    const publisherId = await insertPublisher();
    const first = await post(`/api/v1/publisher/${publisherId}/import`, adminToken);
    expect(first.statusCode).toBe(202);
    const { jobId } = first.json();
    expect(jobId).toEqual(expect.any(String));
    const again = await post(`/api/v1/publisher/${publisherId}/import`, adminToken);
    expect(again.json()).toEqual({ jobId });
    const job = await app.feedImportQueue?.getJob(jobId);
    // The first request's id rides along, so the worker's lines about the job can be found by it.
    expect(job?.data).toEqual({
      publisherId,
      publisherName: 'The Guardian',
      trigger: 'manual',
      requestId: first.headers['x-request-id'],
    });
    expect(await app.feedImportQueue?.getWaitingCount()).toBe(1);
  });

  it('answers 404 for an unknown publisher and 400 for a malformed id', async () => {
    const unknown = await post('/api/v1/publisher/00000000-0000-4000-8000-000000000000/import', adminToken);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('PUBLISHER_NOT_FOUND');
    expect((await post('/api/v1/publisher/nope/import', adminToken)).statusCode).toBe(400);
  });

  it('answers 409 for a publisher that cannot be imported', async () => {
    const response = await post(
      `/api/v1/publisher/${await insertPublisher({ approved: false })}/import`,
      adminToken,
    );
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'PUBLISHER_NOT_IMPORTABLE' });
  });

  it('is for administrators only', async () => {
    expect((await post(`/api/v1/publisher/${ownPublisher}/import`, publisherToken)).statusCode).toBe(403);
    expect(
      (await app.inject({ method: 'POST', url: `/api/v1/publisher/${ownPublisher}/import` })).statusCode,
    ).toBe(401);
  });
});

describe('POST /api/v1/publisher/me/test-feed', () => {
  it("shows the feed's first 5 items exactly as they would be imported, and saves nothing", async () => {
    const before = await snapshotState();
    const response = await post('/api/v1/publisher/me/test-feed', publisherToken, {
      feedUrl: server.url('/guardian.rss'),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.title).toMatch(/guardian/i);
    expect(body.items).toHaveLength(5);
    expect(body.items[0]).toMatchObject({
      status: 'published',
      isAggregated: true,
      source: 'The Guardian',
      tags: expect.arrayContaining(['UK']),
      sourceUrl: expect.stringMatching(/^https:\/\/www\.theguardian\.com\//),
      rssFeedGuid: expect.any(String),
      thumbnail: expect.stringMatching(/^https:\/\//),
      hostSites: [],
    });
    expect(await snapshotState()).toEqual(before);
  });

  it('answers 422 with the reason when the document is not a feed', async () => {
    const response = await post('/api/v1/publisher/me/test-feed', publisherToken, {
      feedUrl: server.url('/not-a-feed'),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'NOT_A_FEED', message: expect.any(String) });
  });

  it('answers 422 INVALID_URL for something that is not an http(s) URL', async () => {
    const response = await post('/api/v1/publisher/me/test-feed', publisherToken, {
      feedUrl: 'file:///etc/passwd',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe('INVALID_URL');
  });

  it('validates the body', async () => {
    expect((await post('/api/v1/publisher/me/test-feed', publisherToken, {})).statusCode).toBe(400);
    expect(
      (
        await post('/api/v1/publisher/me/test-feed', publisherToken, {
          feedUrl: 'https://x.example',
          extra: 1,
        })
      ).statusCode,
    ).toBe(400);
  });

  it('is for publishers only', async () => {
    const response = await post('/api/v1/publisher/me/test-feed', adminToken, {
      feedUrl: server.url('/guardian.rss'),
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('POST /api/v1/publisher/:id/test-feed', () => {
  it("previews the publisher's saved feed by default, with that publisher's settings, saving nothing", async () => {
    const publisherId = await insertPublisher({ autoApprove: false });
    const before = await snapshotState();
    const response = await post(`/api/v1/publisher/${publisherId}/test-feed`, adminToken, {});
    expect(response.statusCode).toBe(200);
    expect(response.json().items).toHaveLength(5);
    expect(response.json().items[0]).toMatchObject({ status: 'pending', publishedAt: null });
    expect(await snapshotState()).toEqual(before);
  });

  it('previews another URL when given one', async () => {
    const publisherId = await insertPublisher();
    const response = await post(`/api/v1/publisher/${publisherId}/test-feed`, adminToken, {
      feedUrl: server.url('/not-a-feed'),
    });
    expect(response.statusCode).toBe(422);
  });

  it('answers 400 FEED_URL_REQUIRED when there is no URL to preview', async () => {
    const publisherId = await insertPublisher({ feedUrl: null });
    const response = await post(`/api/v1/publisher/${publisherId}/test-feed`, adminToken, {});
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('FEED_URL_REQUIRED');
  });
});
