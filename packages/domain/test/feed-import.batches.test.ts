import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { importBatchSize, importFeedItems } from '../src/imports/feed-import.service';
import type { ImportableFeedItem } from '../src/imports/imported-article';
import { feedItem } from './support/feed-items';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

const now = new Date('2026-11-22T10:00:00Z');
// More than two batches, so the last one is a partial batch.
const feedLength = 2 * importBatchSize + 100;

/** The items as the parser hands them over: one at a time, asynchronously. */
async function* streamed(items: ImportableFeedItem[], failAfter = Number.POSITIVE_INFINITY) {
  for (const [index, next] of items.entries()) {
    if (index === failAfter) throw new Error('the parser broke');
    await Promise.resolve();
    yield next;
  }
}

const fetched = (items: AsyncIterable<ImportableFeedItem> | ImportableFeedItem[]) => ({
  notModified: false as const,
  items,
  etag: '"big-v1"',
  lastModified: null,
});

async function newPublisher(siteCount = 0) {
  const { id } = await db
    .insertInto('publishers')
    .values({ name: 'Big Planet', feed_url: 'https://big.example/feed', approved: true, auto_approve: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let s = 0; s < siteCount; s++) {
    const site = await db
      .insertInto('sites')
      .values({ slug: `site-${id.slice(0, 8)}-${s}`, name: `Site ${s}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('publisher_default_sites').values({ publisher_id: id, site_id: site.id }).execute();
  }
  return id;
}

const articlesOf = (publisherId: string) =>
  db
    .selectFrom('articles')
    .select(['rss_feed_guid', 'slug', 'title'])
    .where('publisher_id', '=', publisherId)
    .execute();
const publisherRow = (id: string) =>
  db.selectFrom('publishers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const range = (count: number, from = 1) => Array.from({ length: count }, (_, i) => from + i);

describe('importFeedItems over several batches', () => {
  it('imports a streamed feed longer than one batch, and a second run inserts nothing', async () => {
    const publisherId = await newPublisher(1);
    const items = range(feedLength).map((n) => feedItem(n));
    expect(await importFeedItems(db, publisherId, fetched(streamed(items)), now)).toEqual({
      fetched: feedLength,
      inserted: feedLength,
      skipped: 0,
      filtered: 0,
      waiting: 0,
      notModified: false,
    });
    const rows = await articlesOf(publisherId);
    expect(new Set(rows.map((row) => row.rss_feed_guid))).toEqual(new Set(items.map((i) => i.guid)));
    const links = await db
      .selectFrom('article_sites')
      .innerJoin('articles', 'articles.id', 'article_sites.article_id')
      .where('articles.publisher_id', '=', publisherId)
      .select('article_sites.article_id')
      .execute();
    expect(links).toHaveLength(feedLength);
    expect((await publisherRow(publisherId)).etag).toBe('"big-v1"');

    expect(await importFeedItems(db, publisherId, fetched(streamed(items)), now)).toEqual({
      fetched: feedLength,
      inserted: 0,
      skipped: feedLength,
      filtered: 0,
      waiting: 0,
      notModified: false,
    });
  });

  it('stores news-sized bodies compressed with lz4 (migration 2026-11-22T0600), read back as written', async () => {
    const publisherId = await newPublisher();
    const body = Array.from({ length: 80 }, (_, p) => `<p>Paragraph ${p} of a news story.</p>`).join('');
    await importFeedItems(db, publisherId, fetched([feedItem(1, { body })]), now);
    const row = await db
      .selectFrom('articles')
      .select(['body', sql<string | null>`pg_column_compression(body)`.as('compression')])
      .where('publisher_id', '=', publisherId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ body, compression: 'lz4' });
  });

  it('counts only the new items of a long feed whose older items are already imported', async () => {
    const publisherId = await newPublisher();
    await importFeedItems(db, publisherId, fetched(range(300).map((n) => feedItem(n))), now);
    const counts = await importFeedItems(
      db,
      publisherId,
      fetched(range(feedLength).map((n) => feedItem(n))),
      now,
    );
    expect(counts).toMatchObject({ fetched: feedLength, inserted: feedLength - 300, skipped: 300 });
  });

  it('keeps slugs unique across batches', async () => {
    const publisherId = await newPublisher();
    const items = range(feedLength).map((n) => feedItem(n, { title: 'Same story everywhere' }));
    await importFeedItems(db, publisherId, fetched(streamed(items)), now);
    const slugs = (await articlesOf(publisherId)).map((row) => row.slug);
    expect(new Set(slugs).size).toBe(feedLength);
    expect(slugs).toContain('same-story-everywhere');
    expect(slugs).toContain(`same-story-everywhere-${feedLength}`);
  });

  it('keeps the first of a guid repeated in a later batch', async () => {
    const publisherId = await newPublisher();
    const items = [...range(importBatchSize + 10).map((n) => feedItem(n)), feedItem(5, { title: 'Again' })];
    const counts = await importFeedItems(db, publisherId, fetched(streamed(items)), now);
    expect(counts).toMatchObject({ fetched: items.length, inserted: items.length - 1, skipped: 1 });
    const rows = await articlesOf(publisherId);
    expect(rows.find((row) => row.rss_feed_guid === 'guid-5')?.title).toBe('Story 5');
  });

  it('saves nothing, not even the fetch state, when the items fail in the first batch', async () => {
    const publisherId = await newPublisher();
    const items = range(feedLength).map((n) => feedItem(n));
    await expect(importFeedItems(db, publisherId, fetched(streamed(items, 10)), now)).rejects.toThrow(
      'the parser broke',
    );
    expect(await articlesOf(publisherId)).toEqual([]);
    expect(await publisherRow(publisherId)).toMatchObject({ etag: null, last_fetched_at: null });
  });

  it('holds no lock while the first batch is read, and the publisher row while later ones are', async () => {
    const publisherId = await newPublisher();
    // Whether another connection can lock the publisher row right now (FOR UPDATE NOWAIT).
    const rowIsFree = () =>
      db
        .transaction()
        .execute((tx) =>
          sql`select id from publishers where id = ${publisherId} for update nowait`.execute(tx),
        )
        .then(
          () => true,
          () => false,
        );
    const seen: boolean[] = [];
    async function* watched() {
      for (const n of range(importBatchSize + 1)) {
        if (n === importBatchSize || n === importBatchSize + 1) seen.push(await rowIsFree());
        yield feedItem(n);
      }
    }
    await importFeedItems(db, publisherId, fetched(watched()), now);
    // Item 250 is read before the transaction opens; item 251, after the first batch was saved in it.
    expect(seen).toEqual([true, false]);
  });

  it('skips, by ON CONFLICT, items a concurrent import committed while this one waited for the row', async () => {
    const publisherId = await newPublisher();
    const items = range(importBatchSize).map((n) => feedItem(n));
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    let reachedGate = () => {};
    const atGate = new Promise<void>((resolve) => {
      reachedGate = resolve;
    });
    // Import A saves its first batch, then waits (inside its transaction) before its last item.
    async function* held() {
      yield* items;
      reachedGate();
      await gate;
      yield feedItem(importBatchSize + 1);
    }
    const first = importFeedItems(db, publisherId, fetched(held()), now);
    await atGate;
    // Import B of the same items starts and waits for A's row lock, with a snapshot from before A commits.
    const second = importFeedItems(db, publisherId, fetched(items), now);
    await expect
      .poll(async () => {
        const { rows } = await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
        return rows[0]?.waiting;
      })
      .toBe(1);
    openGate();
    expect(await first).toMatchObject({ inserted: importBatchSize + 1 });
    expect(await second).toMatchObject({ fetched: importBatchSize, inserted: 0, skipped: importBatchSize });
    expect(await articlesOf(publisherId)).toHaveLength(importBatchSize + 1);
  });

  it('saves nothing, not even the fetch state, when the items fail mid-feed', async () => {
    const publisherId = await newPublisher(1);
    const items = range(feedLength).map((n) => feedItem(n));
    // Fails after two whole batches have been inserted in the transaction.
    await expect(
      importFeedItems(db, publisherId, fetched(streamed(items, 2 * importBatchSize + 50)), now),
    ).rejects.toThrow('the parser broke');
    expect(await articlesOf(publisherId)).toEqual([]);
    expect(await publisherRow(publisherId)).toMatchObject({ etag: null, last_fetched_at: null });

    // The next fetch imports the whole feed.
    const counts = await importFeedItems(db, publisherId, fetched(streamed(items)), now);
    expect(counts).toMatchObject({ inserted: feedLength });
  });
});
