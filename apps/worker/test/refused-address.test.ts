import { readFeedFixture, startFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerHarness, insertPublisher, runFetch } from './support/worker-harness';

// The production default: feeds may not reach loopback or private networks.
const harness = await createWorkerHarness({ FEED_ALLOW_PRIVATE_ADDRESSES: 'false' });
const server = await startFeedServer({ '/feed.rss': { body: readFeedFixture('narro.rss') } });
await harness.startWorker();
afterAll(async () => {
  await harness.close();
  await server.close();
});

describe('with the default configuration', () => {
  it.each([
    ['a loopback address', () => server.url('/feed.rss')],
    ['a hostname resolving to loopback', () => server.url('/feed.rss').replace('127.0.0.1', 'localhost')],
  ])('fails a feed at %s permanently with REFUSED_ADDRESS, recorded on the publisher', async (_name, url) => {
    const publisherId = await insertPublisher(harness.db, { feedUrl: url() });
    const result = await runFetch(harness.queue, publisherId);
    expect(result).toMatchObject({ state: 'failed', attemptsMade: 1 });
    expect(result.failedReason).toMatch(/^REFUSED_ADDRESS/);
    const publisher = await harness.db
      .selectFrom('publishers')
      .selectAll()
      .where('id', '=', publisherId)
      .executeTakeFirstOrThrow();
    expect(publisher).toMatchObject({ consecutive_failures: 1 });
    expect(publisher.last_error).toMatch(/^REFUSED_ADDRESS/);
    expect(server.requests).toHaveLength(0);
  });
});
