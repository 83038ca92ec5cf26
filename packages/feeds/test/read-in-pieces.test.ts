import { readdirSync } from 'node:fs';
import type FeedParser from 'feedparser';
import { describe, expect, it } from 'vitest';
import { decodeFeedBody, decodeFeedChunks } from '../src/decode-feed-body';
import { openFeedDocument } from '../src/feed-document';
import { normaliseItem } from '../src/normalise-item';
import { parseFeed } from '../src/parse-feed';
import { FIXTURES_DIR, readFixture } from './support/local-server';

const FEED_URL = 'https://feeds.example.com/feed';

/** Items (raw and normalised) and metadata of a document read with the given step source. */
async function readDocument(text: string | Iterable<string>, charsPerStep?: number) {
  const document = openFeedDocument(text, charsPerStep);
  const raw: FeedParser.Item[] = [];
  for await (const item of document.items()) raw.push(item);
  return { raw, items: raw.map((item) => normaliseItem(item, FEED_URL)), meta: { ...document.meta } };
}

// A feed of several 64 KiB pieces with multi-byte text, and a stray '<' far into the document.
function bigFeed(): Buffer {
  const items = Array.from(
    { length: 400 },
    (_, i) =>
      `<item><guid>g${i}</guid><title>Notícia ${i} – “quoted” 😀${i === 350 ? ' Profits <  5%' : ''}</title><description><![CDATA[<p>${'Ação é 日本 '.repeat(40)}</p>]]></description></item>`,
  ).join('\n');
  return Buffer.from(
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title><link>https://big.example/</link>${items}</channel></rss>`,
  );
}

const fixtures = readdirSync(FIXTURES_DIR).filter(
  (name) => /\.(rss|atom)$/.test(name) && name !== 'unrecognized.rss',
);

describe('reading a document in pieces', () => {
  it.each([...fixtures, 'generated big feed'])(
    'gives the same items and metadata as one piece: %s',
    async (name) => {
      const body = name === 'generated big feed' ? bigFeed() : readFixture(name);
      const whole = await readDocument(decodeFeedBody(body).text, Number.POSITIVE_INFINITY);
      for (const bytesPerChunk of [4096, 64 * 1024]) {
        const pieces = await readDocument(decodeFeedChunks(body, null, bytesPerChunk).chunks);
        expect(pieces, `${bytesPerChunk} bytes per piece`).toEqual(whole);
      }
    },
  );

  it('parseFeed reads the big feed whole, the stray "<" of its item 350 (about 270 KB in) included', async () => {
    const feed = await parseFeed(bigFeed(), { url: FEED_URL });
    expect(feed.items).toHaveLength(400);
    // Titles collapse whitespace; the raw title's two spaces are compared in the test above.
    expect(feed.items[350]?.title).toBe('Notícia 350 – “quoted” 😀 Profits < 5%');
  });
});
