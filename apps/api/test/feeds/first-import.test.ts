import { firstFetchJobId } from '@newsroom/queue';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertAdmin, insertPublisher, type PublisherAccount } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

// The real queue on this file's Redis prefix; no worker runs, so queued jobs stay waiting.
const { app, db, close } = await createTestApp();
afterAll(async () => {
  await app.feedImportQueue?.obliterate({ force: true });
  await close();
});

const admin = await insertAdmin(app, db);
const feedA = 'https://news.example/feed.xml';
const feedB = 'https://news.example/other.xml';

/** The fetch jobs queued for one publisher. */
const jobsOf = async (publisherId: string) =>
  (await app.feedImportQueue?.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed']))?.filter(
    (job) => job.data.publisherId === publisherId,
  ) ?? [];

const approve = (publisherId: string) =>
  app.inject({
    method: 'PUT',
    url: `/api/v1/publisher/${publisherId}/approve`,
    headers: bearer(admin.token),
  });
const saveFeed = (account: PublisherAccount, feedUrl: string | null) =>
  app.inject({
    method: 'PUT',
    url: '/api/v1/publisher/me/feed',
    headers: bearer(account.token),
    payload: { feedUrl },
  });
const setFeedUrl = (publisherId: string, feedUrl: string) =>
  db.updateTable('publishers').set({ feed_url: feedUrl }).where('id', '=', publisherId).execute();

describe('first import on approval', () => {
  it('approving queues one fetch at once, carrying the request id; approving again queues nothing more', async () => {
    const account = await insertPublisher(app, db, { name: 'Daily' });
    await setFeedUrl(account.publisherId, feedA);
    const first = await approve(account.publisherId);
    expect(first.statusCode).toBe(200);
    const again = await approve(account.publisherId);
    expect(again.statusCode).toBe(200);
    const jobs = await jobsOf(account.publisherId);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.id).toBe(firstFetchJobId(account.publisherId, feedA));
    expect(jobs[0]?.data).toEqual({
      publisherId: account.publisherId,
      publisherName: 'Daily',
      trigger: 'first-import',
      requestId: first.headers['x-request-id'],
    });
  });

  it('queues nothing for a publisher without a feed URL, or a disabled one', async () => {
    const noFeed = await insertPublisher(app, db);
    expect((await approve(noFeed.publisherId)).statusCode).toBe(200);
    expect(await jobsOf(noFeed.publisherId)).toHaveLength(0);

    const disabled = await insertPublisher(app, db);
    await db
      .updateTable('publishers')
      .set({ feed_url: feedA, disabled_at: new Date() })
      .where('id', '=', disabled.publisherId)
      .execute();
    expect((await approve(disabled.publisherId)).statusCode).toBe(200);
    expect(await jobsOf(disabled.publisherId)).toHaveLength(0);
  });
});

describe('first import on a new feed URL', () => {
  it('saving a new URL queues one fetch; saving it again queues nothing new; a newer URL joins the queued one', async () => {
    const account = await insertPublisher(app, db, { approved: true });
    const saved = await saveFeed(account, feedA);
    expect(saved.statusCode).toBe(200);
    expect((await saveFeed(account, feedA)).statusCode).toBe(200);
    let jobs = await jobsOf(account.publisherId);
    expect(jobs.map((job) => job.id)).toEqual([firstFetchJobId(account.publisherId, feedA)]);
    expect(jobs[0]?.data).toMatchObject({
      trigger: 'first-import',
      requestId: saved.headers['x-request-id'],
    });

    // One first import per publisher at a time: the queued job reads the address when it runs (feedB).
    expect((await saveFeed(account, feedB)).statusCode).toBe(200);
    jobs = await jobsOf(account.publisherId);
    expect(jobs.map((job) => job.id)).toEqual([firstFetchJobId(account.publisherId, feedA)]);

    // Once that job is gone, another new URL queues its own.
    await jobs[0]?.remove();
    const feedC = 'https://news.example/third.xml';
    expect((await saveFeed(account, feedC)).statusCode).toBe(200);
    jobs = await jobsOf(account.publisherId);
    expect(jobs.map((job) => job.id)).toEqual([firstFetchJobId(account.publisherId, feedC)]);
  });

  it('queues nothing for a publisher not approved yet, nor when the URL is removed', async () => {
    const awaiting = await insertPublisher(app, db);
    expect((await saveFeed(awaiting, feedA)).statusCode).toBe(200);
    expect(await jobsOf(awaiting.publisherId)).toHaveLength(0);

    const approved = await insertPublisher(app, db, { approved: true });
    await setFeedUrl(approved.publisherId, feedA);
    expect((await saveFeed(approved, null)).statusCode).toBe(200);
    expect(await jobsOf(approved.publisherId)).toHaveLength(0);
  });
});
