import { generatedFeed, startStreamingFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertPublisher } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

const KIB = 1024;
const { app, db, close } = await createTestApp({
  env: {
    FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
    FEED_PREVIEW_MAX_BYTES: String(256 * KIB),
    FEED_PREVIEW_CONCURRENCY: '2',
    // One user fills the process's slots here; the per-user share is tested in preview-share.test.ts.
    FEED_PREVIEW_CONCURRENCY_PER_USER: '2',
  },
});
afterAll(close);
const { token } = await insertPublisher(app, db, { approved: true });

const preview = (feedUrl: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/publisher/me/test-feed',
    headers: bearer(token),
    payload: { feedUrl },
  });

describe('test-feed preview limits', () => {
  it('reads only the beginning of a 13 MiB feed: the download stops after the items it shows', async () => {
    const feed = generatedFeed(1700, 8 * KIB, 'Big');
    const server = await startStreamingFeedServer(feed);
    try {
      const response = await preview(server.url('/big.rss'));
      expect(response.statusCode).toBe(200);
      expect(response.json().items).toHaveLength(5);
      const [sent] = server.responses;
      await sent?.closed;
      // The API dropped the connection long before the end of the body (what is sent but unread sits
      // in loopback socket buffers, so this is an upper bound on what the API read).
      expect(sent?.finished).toBe(false);
      expect(sent?.bytesSent).toBeLessThan(feed.length / 2);
    } finally {
      await server.close();
    }
  });

  it('stops at FEED_PREVIEW_MAX_BYTES when the first items are bigger, showing those completed before it', async () => {
    const server = await startStreamingFeedServer(generatedFeed(100, 100 * KIB, 'Long reads'));
    try {
      const response = await preview(server.url('/long.rss'));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ title: 'Long reads' });
      expect(response.json().items.map((item: { title: string }) => item.title)).toEqual([
        'Story 1',
        'Story 2',
      ]);
      await server.responses[0]?.closed;
      expect(server.responses[0]?.finished).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('runs at most FEED_PREVIEW_CONCURRENCY previews at once; the others get 503 TOO_MANY_PREVIEWS with Retry-After', async () => {
    // The server holds every request until released, so the first two previews stay in flight.
    const server = await startStreamingFeedServer(generatedFeed(10, KIB, 'Held'), { hold: true });
    try {
      let refusedCount = 0;
      let allRefused: () => void = () => undefined;
      const fourRefused = new Promise<void>((done) => {
        allRefused = done;
      });
      const pending = Array.from({ length: 6 }, () =>
        preview(server.url('/held.rss')).then((response) => {
          if (response.statusCode === 503 && ++refusedCount === 4) allRefused();
          return response;
        }),
      );
      // Four are refused at once, while the two admitted are still held by the server.
      await Promise.all([fourRefused, server.received(2)]);
      expect(server.responses).toHaveLength(2);
      server.release();
      const responses = await Promise.all(pending);
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 200, 503, 503, 503, 503]);
      for (const response of responses.filter((r) => r.statusCode === 503)) {
        expect(response.json()).toMatchObject({ code: 'TOO_MANY_PREVIEWS' });
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
      // The slots are free again.
      expect((await preview(server.url('/held.rss'))).statusCode).toBe(200);
    } finally {
      await server.close();
    }
  });
});
