import { generatedFeed, startStreamingFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertAdmin, insertPublisher } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

// The preview slots (FEED_PREVIEW_CONCURRENCY, 4 by default) are shared by every dashboard user: one user
// holding them with slow feeds must not make everyone else's preview answer 503. Each user holds at most its
// share (FEED_PREVIEW_CONCURRENCY_PER_USER, 1 by default); the feeds are held by a loopback server.

const { app, db, close } = await createTestApp({ env: { FEED_ALLOW_PRIVATE_ADDRESSES: 'true' } });
afterAll(close);

const publisherPreview = (token: string, feedUrl: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/publisher/me/test-feed',
    headers: bearer(token),
    payload: { feedUrl },
  });

type Answer = Awaited<ReturnType<typeof publisherPreview>>;

/**
 * Resolves once `count` of `answers` came back refused (not 200), or after 10 s (a failed expectation, not
 * a hang). The held feed is released only then, so no refused request can find a slot freed by the release.
 */
function refusals(answers: Promise<Answer>[], count: number): Promise<number> {
  let refused = 0;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(refused), 10_000);
    for (const answer of answers) {
      void answer.then((response) => {
        if (response.statusCode !== 200 && ++refused === count) {
          clearTimeout(timer);
          resolve(refused);
        }
      });
    }
  });
}

describe('preview slots per user', () => {
  it('lets one user hold only its share, so other users (an administrator too) still get a preview', async () => {
    const server = await startStreamingFeedServer(generatedFeed(10, 1024, 'Slow'), { hold: true });
    try {
      const greedy = await insertPublisher(app, db, { approved: true });
      const second = await insertPublisher(app, db, { approved: true });
      const admin = await insertAdmin(app, db);
      const slowFeed = server.url('/slow.rss');

      // Four slow previews at once from one publisher: one runs, the others are refused at once.
      const greedyAnswers = Array.from({ length: 4 }, () => publisherPreview(greedy.token, slowFeed));
      const secondAnswer = publisherPreview(second.token, slowFeed);
      const adminAnswer = app.inject({
        method: 'POST',
        url: `/api/v1/publisher/${greedy.publisherId}/test-feed`,
        headers: bearer(admin.token),
        payload: { feedUrl: slowFeed },
      });
      // The greedy user's other three are refused while its one preview is held by the server.
      expect(await refusals(greedyAnswers, 3)).toBe(3);
      // The second publisher's and the administrator's previews got slots and reach the feed too.
      await server.received(3);
      server.release();

      const greedyStatuses = (await Promise.all(greedyAnswers)).map((answer) => answer.statusCode);
      expect(greedyStatuses.sort()).toEqual([200, 429, 429, 429]);
      const refused = (await Promise.all(greedyAnswers)).find((answer) => answer.statusCode === 429);
      expect(refused?.json()).toMatchObject({ code: 'TOO_MANY_OWN_PREVIEWS' });
      expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
      expect((await secondAnswer).statusCode).toBe(200);
      expect((await adminAnswer).statusCode).toBe(200);
      expect(server.responses).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('still caps all users together at FEED_PREVIEW_CONCURRENCY (503 TOO_MANY_PREVIEWS past it)', async () => {
    const server = await startStreamingFeedServer(generatedFeed(10, 1024, 'Slow'), { hold: true });
    try {
      const users = await Promise.all(
        Array.from({ length: 5 }, () => insertPublisher(app, db, { approved: true })),
      );
      const answers = users.map((user) => publisherPreview(user.token, server.url('/slow.rss')));
      expect(await refusals(answers, 1)).toBe(1);
      await server.received(4);
      server.release();
      const statuses = (await Promise.all(answers)).map((answer) => answer.statusCode);
      expect(statuses.sort()).toEqual([200, 200, 200, 200, 503]);
    } finally {
      await server.close();
    }
  });
});
