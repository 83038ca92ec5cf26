import { createTestDatabase } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { isQuiet } from '../src/imports/feed-health';
import { importBatchSize, importFeedItems } from '../src/imports/feed-import.service';
import type { ImportableFeedItem } from '../src/imports/imported-article';
import {
  findPublisherFeedSettings,
  listImportablePublisherIds,
} from '../src/imports/publisher-feed-settings.repository';
import { pauseAfterFailures, recordFeedFetchFailure } from '../src/imports/publisher-feed-state.repository';
import { findPublisherById } from '../src/publishers/publisher.repository';
import { resumePublisherFeed, updatePublisher } from '../src/publishers/publisher.service';
import { feedItem } from './support/feed-items';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

const now = new Date('2026-11-22T10:00:00Z');
const fetched = (items: Iterable<ImportableFeedItem>, etag: string | null = '"v1"') => ({
  notModified: false as const,
  items,
  etag,
  lastModified: 'Sat, 21 Nov 2026 10:00:00 GMT',
});
const hour = 60 * 60 * 1000;
/** Item n, dated n hours after a fixed start (so a larger n is newer). */
const dated = (n: number, overrides: Partial<ImportableFeedItem> = {}) =>
  feedItem(n, { publishedAt: new Date(Date.UTC(2026, 10, 1) + n * hour), ...overrides });

async function newPublisher() {
  const { id } = await db
    .insertInto('publishers')
    .values({
      name: 'Daily Planet',
      feed_url: 'https://planet.example/feed',
      default_tags: [],
      approved: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

const guidsOf = async (publisherId: string) =>
  (
    await db
      .selectFrom('articles')
      .select('rss_feed_guid')
      .where('publisher_id', '=', publisherId)
      .orderBy('rss_feed_guid')
      .execute()
  ).map((row) => row.rss_feed_guid);

describe('an import with publisher rules', () => {
  it('skips and counts items refused by keywords, never storing them', async () => {
    const publisherId = await newPublisher();
    await updatePublisher(db, publisherId, {
      importRules: { excludeKeywords: ['horoscope'], includeKeywords: ['city', 'council'] },
    });
    const items = [
      dated(1, { title: 'City budget passes' }),
      dated(2, { title: 'Your horoscope for the city' }),
      dated(3, { title: 'Weather', body: '<p>The <em>council</em> met.</p>' }),
      dated(4, { title: 'Football' }),
    ];
    expect(await importFeedItems(db, publisherId, fetched(items), now)).toEqual({
      fetched: 4,
      inserted: 2,
      skipped: 0,
      filtered: 2,
      waiting: 0,
      notModified: false,
    });
    expect(await guidsOf(publisherId)).toEqual(['guid-1', 'guid-3']);
    // Again: the refused ones are refused again (not "already imported"), the others are known.
    expect(await importFeedItems(db, publisherId, fetched(items), now)).toMatchObject({
      inserted: 0,
      skipped: 2,
      filtered: 2,
    });
  });

  it('applies the tag mapping, tag cap, default category and section to saved articles', async () => {
    const publisherId = await newPublisher();
    await updatePublisher(db, publisherId, {
      defaultTags: ['Local'],
      importRules: {
        tagMappings: [
          { from: 'soccer', to: 'Football' },
          { from: 'Promoted', to: null },
        ],
        maxTags: 2,
        defaultCategory: 'Sport',
        defaultSection: 'Region',
      },
    });
    await importFeedItems(
      db,
      publisherId,
      fetched([dated(1, { categories: ['Promoted', 'Soccer', 'Clubs'] })]),
      now,
    );
    const row = await db
      .selectFrom('articles')
      .select(['tags', 'category', 'section'])
      .where('publisher_id', '=', publisherId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ tags: ['Local', 'Football'], category: 'Sport', section: 'Region' });
  });

  it('saves the oldest new items up to the cap; the rest wait and arrive with the next fetches', async () => {
    const publisherId = await newPublisher();
    await updatePublisher(db, publisherId, { importRules: { maxNewItemsPerFetch: 2 } });
    // Newest first, as feeds list them.
    const items = [5, 4, 3, 2, 1].map((n) => dated(n));
    expect(await importFeedItems(db, publisherId, fetched(items), now)).toMatchObject({
      fetched: 5,
      inserted: 2,
      waiting: 3,
    });
    expect(await guidsOf(publisherId)).toEqual(['guid-1', 'guid-2']);
    // Items were left waiting: no validators stored, so the next fetch is a full one, not a 304.
    const settings = await findPublisherFeedSettings(db, publisherId);
    expect(settings).toMatchObject({ etag: null, lastModified: null });

    expect(await importFeedItems(db, publisherId, fetched(items), now)).toMatchObject({
      inserted: 2,
      skipped: 2,
      waiting: 1,
    });
    expect(await importFeedItems(db, publisherId, fetched(items), now)).toMatchObject({
      inserted: 1,
      skipped: 4,
      waiting: 0,
    });
    expect(await guidsOf(publisherId)).toEqual(['guid-1', 'guid-2', 'guid-3', 'guid-4', 'guid-5']);
    // Nothing waits any more: the validators are stored again.
    expect(await findPublisherFeedSettings(db, publisherId)).toMatchObject({ etag: '"v1"' });
  });

  it('keeps the oldest items across batches of a long feed', async () => {
    const publisherId = await newPublisher();
    await updatePublisher(db, publisherId, { importRules: { maxNewItemsPerFetch: 3 } });
    const count = importBatchSize * 2 + 10;
    // Newest first: the oldest three are the last three of the feed, in the third batch.
    const items = Array.from({ length: count }, (_, i) => dated(count - i));
    expect(await importFeedItems(db, publisherId, fetched(items), now)).toMatchObject({
      fetched: count,
      inserted: 3,
      waiting: count - 3,
    });
    expect(await guidsOf(publisherId)).toEqual(['guid-1', 'guid-2', 'guid-3']);
  });
});

describe('feed pause', () => {
  it(`pauses the feed at the ${pauseAfterFailures}th failure in a row; the fan-out skips it until resumed`, async () => {
    const publisherId = await newPublisher();
    for (let i = 1; i < pauseAfterFailures; i += 1) {
      expect(await recordFeedFetchFailure(db, publisherId, 'TIMEOUT: slow')).toMatchObject({ paused: false });
    }
    expect(await listImportablePublisherIds(db)).toContain(publisherId);
    expect(await recordFeedFetchFailure(db, publisherId, 'HTTP_STATUS: HTTP 500')).toMatchObject({
      paused: true,
      consecutiveFailures: 10,
    });
    expect(await listImportablePublisherIds(db)).not.toContain(publisherId);
    const paused = await findPublisherById(db, publisherId);
    expect(paused?.feedHealth.paused).toEqual({
      at: expect.any(Date),
      reason:
        "10 failed fetches in a row; the last one: The feed's server answered with an error instead of the feed (HTTP 500).",
    });

    const resumed = await resumePublisherFeed(db, publisherId);
    expect(resumed.feedHealth).toMatchObject({ paused: null, consecutiveFailures: 0 });
    expect(resumed.feedHealth.lastError?.code).toBe('HTTP_STATUS');
    expect(await listImportablePublisherIds(db)).toContain(publisherId);
  });
});

describe('feed health', () => {
  it('counts new items of the last 24 h and 7 days and the usual interval between items', async () => {
    const publisherId = await newPublisher();
    const created = (hoursAgo: number) => new Date(Date.now() - hoursAgo * hour);
    const rows = [1, 30, 100, 400].map((hoursAgo, i) => ({
      title: `Story ${i}`,
      slug: `health-${publisherId}-${i}`,
      tags: [],
      status: 'pending' as const,
      is_aggregated: true,
      publisher_id: publisherId,
      rss_feed_guid: `h-${i}`,
      created_at: created(hoursAgo),
      // Items dated 6 hours apart.
      source_published_at: created(hoursAgo + 6 * i),
    }));
    await db.insertInto('articles').values(rows).execute();
    const { feedHealth } = (await findPublisherById(db, publisherId)) ?? {};
    expect(feedHealth).toMatchObject({ itemsLast24h: 1, itemsLast7d: 3, quiet: false });
    // Dates: now-1h, now-36h, now-112h, now-418h: span 417 h over 3 intervals.
    expect(feedHealth?.meanIntervalSeconds).toBeCloseTo((417 * 3600) / 3, 0);
  });

  it('is quiet after 3 usual intervals without a new item, and never before a day', () => {
    const at = new Date('2026-11-22T00:00:00Z');
    const later = (hours: number) => new Date(at.getTime() + hours * hour);
    expect(isQuiet(at, 12 * 3600, later(35))).toBe(false);
    expect(isQuiet(at, 12 * 3600, later(37))).toBe(true);
    expect(isQuiet(at, 600, later(23))).toBe(false);
    expect(isQuiet(at, 600, later(25))).toBe(true);
    expect(isQuiet(at, null, later(1000))).toBe(false);
    expect(isQuiet(null, 600, later(1000))).toBe(false);
  });
});
