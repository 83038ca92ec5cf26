import zlib from 'node:zlib';
import { generatedFeed, startStreamingFeedServer } from '@newsroom/test-support/streamed-feed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeedFetcher, FeedError, type FeedFetcher, readFeed, readFeedPreview } from '../src/index';
import { type LocalServer, onlyLoopbackServer, readFixture, startLocalServer } from './support/local-server';

const KIB = 1024;
const MIB = 1024 * KIB;
// ~13 MiB: 1,700 items of ~8 KiB, the size of feed that took the API from 118 to 389 MiB in 16 previews.
const bigFeed = generatedFeed(1700, 8 * KIB, 'Big');
const limits = { maxItems: 5, maxBytes: 2 * MIB };

let fixtures: LocalServer;
let fetcher: FeedFetcher;
beforeAll(async () => {
  fixtures = await startLocalServer((request, response) => {
    const name = (request.url ?? '').slice(1);
    const type = name === 'uolNoticias.rss' ? 'text/xml; charset=ISO-8859-1' : 'application/rss+xml';
    if (name === 'big.rss') {
      response.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip' });
      response.end(zlib.gzipSync(bigFeed));
      return;
    }
    response.writeHead(200, { 'content-type': type });
    response.end(readFixture(name));
  });
  fetcher = createFeedFetcher({ isAllowedAddress: onlyLoopbackServer });
});
afterAll(async () => {
  await fetcher.close();
  await fixtures.close();
});

describe('readFeedPreview', () => {
  it('stops downloading a 13 MiB feed once its first items are read', async () => {
    const server = await startStreamingFeedServer(bigFeed);
    try {
      const preview = await readFeedPreview(fetcher, { url: server.url('/feed') }, limits);
      if (preview.notModified) throw new Error('expected content');
      expect(preview.title).toBe('Big');
      expect(preview.items.map((item) => item.guid)).toEqual([1, 2, 3, 4, 5].map((n) => `story-${n}`));
      expect(preview.cut).toBe(false);
      // Five ~8 KiB items are in the first 64 KiB piece of the body; nothing after it was read.
      expect(preview.bytesRead).toBeLessThanOrEqual(128 * KIB);
      const [response] = server.responses;
      await response?.closed;
      expect(response?.finished).toBe(false);
      expect(response?.bytesSent).toBeLessThan(bigFeed.length / 2);
    } finally {
      await server.close();
    }
  });

  it('reads at most maxBytes of a feed whose first items are bigger, and shows the items completed before the cut', async () => {
    const server = await startStreamingFeedServer(generatedFeed(40, 100 * KIB));
    try {
      const preview = await readFeedPreview(
        fetcher,
        { url: server.url('/feed') },
        { maxItems: 5, maxBytes: 256 * KIB },
      );
      if (preview.notModified) throw new Error('expected content');
      expect(preview.cut).toBe(true);
      expect(preview.bytesRead).toBe(256 * KIB);
      expect(preview.items.map((item) => item.guid)).toEqual(['story-1', 'story-2']);
      await server.responses[0]?.closed;
      expect(server.responses[0]?.finished).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('refuses with TOO_LARGE a feed with no complete item within maxBytes', async () => {
    const server = await startStreamingFeedServer(generatedFeed(3, 400 * KIB));
    try {
      const error = await readFeedPreview(
        fetcher,
        { url: server.url('/feed') },
        { maxItems: 5, maxBytes: 256 * KIB },
      ).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(FeedError);
      expect((error as FeedError).code).toBe('TOO_LARGE');
    } finally {
      await server.close();
    }
  });

  it('counts decompressed bytes: a gzipped big feed stops the same way', async () => {
    const preview = await readFeedPreview(fetcher, { url: `${fixtures.origin}/big.rss` }, limits);
    if (preview.notModified) throw new Error('expected content');
    expect(preview.items).toHaveLength(5);
    expect(preview.bytesRead).toBeLessThanOrEqual(128 * KIB);
  });

  it.each(['guardian.rss', 'uolNoticias.rss', 'heise.atom', 'encoding.rss', 'rss-1.rss', 'reddit.rss'])(
    'shows the same title and first items as reading %s whole',
    async (name) => {
      const url = `${fixtures.origin}/${name}`;
      const whole = await readFeed(fetcher, { url }, { maxItems: 5 });
      const preview = await readFeedPreview(fetcher, { url }, limits);
      if (whole.notModified || preview.notModified) throw new Error('expected content');
      expect(preview.title).toBe(whole.title);
      expect(preview.link).toBe(whole.link);
      expect(preview.items).toEqual(whole.items);
    },
  );
});
