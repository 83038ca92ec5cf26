import { createFeedFetcher } from '@newsroom/feeds';
import { startFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerHarness, insertPublisher, runFetch, type WorkerHarness } from './support/worker-harness';

// Items whose pictures point at loopback, private, link-local and internal hosts, beside public ones.
const feed = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>
<title>Mixed pictures</title><link>https://mixed.example/</link>
<item><title>Private thumbnail, public image</title><link>https://mixed.example/1</link><guid>one</guid>
  <media:thumbnail url="http://192.168.1.10/thumb.jpg" width="140"/>
  <media:content url="https://cdn.example.com/big.jpg" medium="image" width="800"/>
  <description>One</description></item>
<item><title>Private enclosure and body image</title><link>https://mixed.example/2</link><guid>two</guid>
  <enclosure url="http://localhost:8080/x.jpg" type="image/jpeg" length="1"/>
  <description><![CDATA[<img src="http://169.254.169.254/latest/meta-data.jpg"><p>Text</p><img src="https://cdn.example.com/body.jpg">]]></description></item>
<item><title>Only private pictures</title><link>https://mixed.example/3</link><guid>three</guid>
  <enclosure url="http://[::1]/a.png" type="image/png" length="1"/>
  <description><![CDATA[<p>Three</p><img src="http://intranet/b.png"><img src="http://0x7f.1/c.png"><img src="http://printer.local/d.png">]]></description></item>
</channel></rss>`;

const server = await startFeedServer({ '/mixed.rss': { body: feed } });
// The feed server is on loopback: these workers fetch from exactly 127.0.0.1 whatever the switch says,
// so the switch governs only the pictures.
const fetcher = createFeedFetcher({ isAllowedAddress: (address) => address === '127.0.0.1' });
const harnesses: WorkerHarness[] = [];
afterAll(async () => {
  await Promise.all(harnesses.map((harness) => harness.close()));
  await fetcher.close();
  await server.close();
});

async function importWith(allowPrivate: 'true' | 'false') {
  const harness = await createWorkerHarness({ FEED_ALLOW_PRIVATE_ADDRESSES: allowPrivate });
  harnesses.push(harness);
  await harness.startWorker({ fetcher });
  const publisherId = await insertPublisher(harness.db, { feedUrl: server.url('/mixed.rss') });
  expect((await runFetch(harness.queue, publisherId)).state).toBe('completed');
  const rows = await harness.db
    .selectFrom('articles')
    .select(['rss_feed_guid', 'thumbnail', 'image', 'body'])
    .where('publisher_id', '=', publisherId)
    .orderBy('rss_feed_guid')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.rss_feed_guid, row]));
}

describe('feed pictures on private addresses', () => {
  it('are dropped at import with FEED_ALLOW_PRIVATE_ADDRESSES off, falling back to public ones', async () => {
    const articles = await importWith('false');
    expect(articles.one).toMatchObject({
      thumbnail: 'https://cdn.example.com/big.jpg',
      image: 'https://cdn.example.com/big.jpg',
    });
    expect(articles.two).toMatchObject({
      thumbnail: 'https://cdn.example.com/body.jpg',
      image: 'https://cdn.example.com/body.jpg',
    });
    expect(articles.two?.body).toBe('<p>Text</p><img src="https://cdn.example.com/body.jpg" />');
    expect(articles.three).toMatchObject({ thumbnail: null, image: null, body: '<p>Three</p>' });
  });

  it('are kept with the switch on (development and tests)', async () => {
    const articles = await importWith('true');
    expect(articles.one).toMatchObject({
      thumbnail: 'http://192.168.1.10/thumb.jpg',
      image: 'https://cdn.example.com/big.jpg',
    });
    expect(articles.two?.image).toBe('http://localhost:8080/x.jpg');
    expect(articles.three?.body).toContain('http://intranet/b.png');
  });
});
