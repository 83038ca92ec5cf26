import { startFeedServer } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { BIG_FEED_BYTES } from '../src/imports/fetch-feed.job';
import { createWorkerHarness, insertPublisher, runFetch } from './support/worker-harness';

const harness = await createWorkerHarness();
const { db, queue } = harness;
const server = await startFeedServer();
await harness.startWorker();
afterAll(async () => {
  await harness.close();
  await server.close();
});

const paragraph = `<p>${'Notícias – the council met again to discuss the harbour budget. '.repeat(50)}</p>`;
const item = (n: number) =>
  `<item><guid>long-${n}</guid><title>Long feed story ${n}</title><link>https://long.example/${n}</link><description><![CDATA[${paragraph}]]></description></item>`;
const rss = (items: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Long</title><link>https://long.example/</link>${items}</channel></rss>`;

const articleCount = async (publisherId: string) =>
  Number(
    (
      await db
        .selectFrom('articles')
        .select(({ fn }) => fn.countAll<string>().as('n'))
        .where('publisher_id', '=', publisherId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('a feed over the big-feed size, parsed and saved batch by batch', () => {
  it('imports every item once (a guid repeated at the end is kept once)', async () => {
    const items = Array.from({ length: 700 }, (_, i) => item(i));
    const body = Buffer.from(rss([...items, item(3)].join('\n')));
    expect(body.length).toBeGreaterThan(BIG_FEED_BYTES);
    server.route('/long.rss', { body });
    const publisherId = await insertPublisher(db, { feedUrl: server.url('/long.rss') });

    const first = await runFetch(queue, publisherId);
    expect(first.returnvalue).toEqual({
      fetched: 700,
      inserted: 700,
      skipped: 0,
      filtered: 0,
      waiting: 0,
      notModified: false,
    });
    expect(await articleCount(publisherId)).toBe(700);

    // The server sends no validators: the same bytes again are recognised by their hash, not parsed.
    const second = await runFetch(queue, publisherId);
    expect(second.returnvalue).toEqual({
      fetched: 0,
      inserted: 0,
      skipped: 0,
      filtered: 0,
      waiting: 0,
      notModified: true,
    });

    // One new item on top: the 700 known ones are left out before parsing, the new one saved.
    server.route('/long.rss', { body: Buffer.from(rss([item(700), ...items, item(3)].join('\n'))) });
    const third = await runFetch(queue, publisherId);
    expect(third.returnvalue).toEqual({
      fetched: 701,
      inserted: 1,
      skipped: 700,
      filtered: 0,
      waiting: 0,
      notModified: false,
    });
    expect(await articleCount(publisherId)).toBe(701);
  });

  it('fails a big document that is not a feed permanently, saving nothing', async () => {
    const body = Buffer.from(`<html><body>${paragraph.repeat(700)}</body></html>`);
    expect(body.length).toBeGreaterThan(BIG_FEED_BYTES);
    server.route('/long.html', { body, contentType: 'text/html' });
    const publisherId = await insertPublisher(db, { feedUrl: server.url('/long.html') });
    const result = await runFetch(queue, publisherId);
    expect(result).toMatchObject({ state: 'failed', attemptsMade: 1 });
    expect(result.failedReason).toMatch(/^NOT_A_FEED/);
    expect(await articleCount(publisherId)).toBe(0);
    expect(
      await db.selectFrom('publishers').selectAll().where('id', '=', publisherId).executeTakeFirstOrThrow(),
    ).toMatchObject({ consecutive_failures: 1, last_fetched_at: null });
  });
});
