import { createTestDatabase } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { importBatchSize, importFeedItems, recordUnchangedFeed } from '../src/imports/feed-import.service';
import { dueBy, nextFetchAfter } from '../src/imports/fetch-schedule';
import type { DeferredFeedItem } from '../src/imports/imported-article';
import { feedItem } from './support/feed-items';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

const now = new Date('2026-11-23T10:00:00Z');

async function newPublisher() {
  const { id } = await db
    .insertInto('publishers')
    .values({
      name: 'Lazy Planet',
      feed_url: 'https://lazy.example/feed',
      approved: true,
      auto_approve: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Items 1..count as deferred items, recording which were normalised. */
function deferred(count: number, normalised: number[]): DeferredFeedItem[] {
  return Array.from({ length: count }, (_, i) => ({
    guid: `guid-${i + 1}`,
    normalise: () => {
      normalised.push(i + 1);
      return feedItem(i + 1);
    },
  }));
}

const fetched = (items: DeferredFeedItem[]) => ({
  notModified: false as const,
  items,
  etag: null,
  lastModified: null,
});

describe('deferred items', () => {
  it('are normalised only when the publisher does not have them, in every batch', async () => {
    const id = await newPublisher();
    const first: number[] = [];
    await importFeedItems(db, id, fetched(deferred(10, first)), now);
    expect(first).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    const again: number[] = [];
    const counts = await importFeedItems(db, id, fetched(deferred(13, again)), now);
    expect(counts).toEqual({
      fetched: 13,
      inserted: 3,
      skipped: 10,
      filtered: 0,
      waiting: 0,
      notModified: false,
    });
    expect(again).toEqual([11, 12, 13]);

    // Past the first batch the known guids are looked up per batch (one query each): same rule.
    const big: number[] = [];
    const total = importBatchSize + 20;
    await importFeedItems(db, id, fetched(deferred(total, big)), now);
    expect(big).toEqual(Array.from({ length: total - 13 }, (_, i) => i + 14));
  });

  it('store the body hash and the refresh state with the import; an unchanged body keeps the hash', async () => {
    const id = await newPublisher();
    const next = new Date('2026-11-23T13:00:00Z');
    await importFeedItems(
      db,
      id,
      { ...fetched(deferred(2, [])), bodyHash: 'abc', feedRefreshSeconds: 10_800, nextFetchAfter: next },
      now,
    );
    const row = () => db.selectFrom('publishers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({
      feed_body_hash: 'abc',
      feed_refresh_seconds: 10_800,
      next_fetch_after: next,
    });
    expect(
      await recordUnchangedFeed(db, id, { etag: '"new"', lastModified: null, nextFetchAfter: null }, now),
    ).toEqual({ fetched: 0, inserted: 0, skipped: 0, filtered: 0, waiting: 0, notModified: true });
    expect(await row()).toMatchObject({ feed_body_hash: 'abc', etag: '"new"', next_fetch_after: null });
  });
});

describe('nextFetchAfter', () => {
  const at = new Date('2026-11-23T10:05:00Z');
  it('uses the longer hint, only when longer than an hour, capped at 24 h', () => {
    expect(nextFetchAfter(at, null, null)).toBeNull();
    expect(nextFetchAfter(at, 3600, 600)).toBeNull();
    expect(nextFetchAfter(at, 7200, 3 * 3600)?.toISOString()).toBe('2026-11-23T13:05:00.000Z');
    expect(nextFetchAfter(at, 30 * 86_400, null)?.toISOString()).toBe('2026-11-24T10:05:00.000Z');
  });
  it('counts a publisher due in the slot its time falls in, with a grace of 10 minutes', () => {
    expect(dueBy(new Date('2026-11-23T12:00:00Z')).toISOString()).toBe('2026-11-23T12:10:00.000Z');
  });
});
