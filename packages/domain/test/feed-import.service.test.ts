import { createTestDatabase } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../src/errors';
import {
  getImportablePublisher,
  getPublisherFeedSettings,
  importFeedItems,
} from '../src/imports/feed-import.service';
import { previewFeedImport } from '../src/imports/feed-import-preview';
import type { ImportableFeedItem } from '../src/imports/imported-article';
import {
  findPublisherFeedSettings,
  listImportablePublisherIds,
} from '../src/imports/publisher-feed-settings.repository';
import { recordFeedFetchFailure } from '../src/imports/publisher-feed-state.repository';
import { feedItem } from './support/feed-items';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

const now = new Date('2026-11-22T10:00:00Z');
const fetched = (items: ImportableFeedItem[], etag: string | null = '"v1"') => ({
  notModified: false as const,
  items,
  etag,
  lastModified: 'Sat, 21 Nov 2026 10:00:00 GMT',
});

async function newPublisher(
  values: { autoApprove?: boolean; approved?: boolean; feedUrl?: string | null } = {},
) {
  const { id } = await db
    .insertInto('publishers')
    .values({
      name: 'Daily Planet',
      feed_url: values.feedUrl === undefined ? 'https://planet.example/feed' : values.feedUrl,
      default_tags: ['Planet'],
      approved: values.approved ?? true,
      auto_approve: values.autoApprove ?? true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

const articlesOf = (publisherId: string) =>
  db.selectFrom('articles').selectAll().where('publisher_id', '=', publisherId).orderBy('title').execute();

describe('importFeedItems', () => {
  it('inserts new items once, and a second run inserts nothing', async () => {
    const publisherId = await newPublisher();
    const items = [feedItem(1), feedItem(2), feedItem(3)];
    expect(await importFeedItems(db, publisherId, fetched(items), now)).toEqual({
      fetched: 3,
      inserted: 3,
      skipped: 0,
      filtered: 0,
      waiting: 0,
      notModified: false,
    });
    expect(await importFeedItems(db, publisherId, fetched([...items, feedItem(4)]), now)).toEqual({
      fetched: 4,
      inserted: 1,
      skipped: 3,
      filtered: 0,
      waiting: 0,
      notModified: false,
    });
    const rows = await articlesOf(publisherId);
    expect(rows.map((row) => row.rss_feed_guid)).toEqual(['guid-1', 'guid-2', 'guid-3', 'guid-4']);
    expect(rows[0]).toMatchObject({
      status: 'published',
      is_aggregated: true,
      source: 'Daily Planet',
      source_url: 'https://news.example/1',
      tags: ['Planet'],
      published_at: new Date('2026-11-21T10:00:00Z'),
      source_published_at: new Date('2026-11-21T10:00:00Z'),
    });
  });

  it('imports as pending when the publisher does not auto-approve', async () => {
    const publisherId = await newPublisher({ autoApprove: false });
    await importFeedItems(db, publisherId, fetched([feedItem(1)]), now);
    const [row] = await articlesOf(publisherId);
    expect(row).toMatchObject({ status: 'pending', published_at: null });
    expect(row?.source_published_at).toEqual(new Date('2026-11-21T10:00:00Z'));
  });

  it('scopes guids per publisher: two publishers with the same guid both import it', async () => {
    const first = await newPublisher();
    const second = await newPublisher();
    await importFeedItems(db, first, fetched([feedItem(7)]), now);
    expect((await importFeedItems(db, second, fetched([feedItem(7)]), now)).inserted).toBe(1);
  });

  it('gives every article a unique slug, also within one feed and across publishers', async () => {
    const a = await newPublisher();
    const b = await newPublisher();
    const same = (n: number) => feedItem(n, { title: 'Breaking: same headline' });
    await importFeedItems(db, a, fetched([same(101), same(102)]), now);
    await importFeedItems(db, b, fetched([same(103)]), now);
    const slugs = (
      await db.selectFrom('articles').select('slug').where('title', '=', 'Breaking: same headline').execute()
    ).map((row) => row.slug);
    expect(slugs.sort()).toEqual([
      'breaking-same-headline',
      'breaking-same-headline-2',
      'breaking-same-headline-3',
    ]);
  });

  it('links new articles to the publisher default host sites', async () => {
    const publisherId = await newPublisher();
    const sites = await db
      .insertInto('sites')
      .values([
        { slug: 'metro', name: 'Metro' },
        { slug: 'coast', name: 'Coast' },
      ])
      .returning('id')
      .execute();
    await db
      .insertInto('publisher_default_sites')
      .values(sites.map((site) => ({ publisher_id: publisherId, site_id: site.id })))
      .execute();
    await importFeedItems(db, publisherId, fetched([feedItem(1), feedItem(2)]), now);
    const links = await db
      .selectFrom('article_sites')
      .innerJoin('articles', 'articles.id', 'article_sites.article_id')
      .where('articles.publisher_id', '=', publisherId)
      .select('article_sites.site_id')
      .execute();
    expect(links).toHaveLength(4);
  });

  it('keeps the first of repeated guids within one feed', async () => {
    const publisherId = await newPublisher();
    const counts = await importFeedItems(
      db,
      publisherId,
      fetched([feedItem(1), feedItem(1, { title: 'Again' })]),
      now,
    );
    expect(counts).toMatchObject({ fetched: 2, inserted: 1, skipped: 1 });
  });

  it('records validators and clears failures on success; a 304 keeps validators it does not repeat', async () => {
    const publisherId = await newPublisher();
    await recordFeedFetchFailure(db, publisherId, 'timed out');
    await recordFeedFetchFailure(db, publisherId, 'timed out');
    let state = await db
      .selectFrom('publishers')
      .selectAll()
      .where('id', '=', publisherId)
      .executeTakeFirstOrThrow();
    expect(state).toMatchObject({ consecutive_failures: 2, last_error: 'timed out' });

    await importFeedItems(db, publisherId, fetched([feedItem(1)]), now);
    state = await db
      .selectFrom('publishers')
      .selectAll()
      .where('id', '=', publisherId)
      .executeTakeFirstOrThrow();
    expect(state).toMatchObject({
      consecutive_failures: 0,
      last_error: null,
      etag: '"v1"',
      last_fetched_at: now,
    });

    const later = new Date('2026-11-22T11:00:00Z');
    const counts = await importFeedItems(
      db,
      publisherId,
      { notModified: true, etag: null, lastModified: 'Sun, 22 Nov 2026 10:00:00 GMT' },
      later,
    );
    expect(counts).toEqual({
      fetched: 0,
      inserted: 0,
      skipped: 0,
      filtered: 0,
      waiting: 0,
      notModified: true,
    });
    const settings = await findPublisherFeedSettings(db, publisherId);
    expect(settings).toMatchObject({ etag: '"v1"', lastModified: 'Sun, 22 Nov 2026 10:00:00 GMT' });

    // A full response without an ETag forgets the stored one.
    await importFeedItems(db, publisherId, fetched([feedItem(1)], null), later);
    expect((await findPublisherFeedSettings(db, publisherId))?.etag).toBeNull();
  });

  it('refuses a publisher that does not exist (deleted since the fetch), with a 304 as with items', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const notModified = { notModified: true as const, etag: '"v2"', lastModified: null };
    await expect(importFeedItems(db, missing, notModified, now)).rejects.toBeInstanceOf(NotFoundError);
    await expect(importFeedItems(db, missing, fetched([feedItem(1)]), now)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const rows = await db.selectFrom('articles').select('id').where('publisher_id', '=', missing).execute();
    expect(rows).toEqual([]);
  });
});

describe('publisher feed state', () => {
  it('lists only approved, enabled publishers with a feed URL', async () => {
    const due = await newPublisher();
    const unapproved = await newPublisher({ approved: false });
    const noFeed = await newPublisher({ feedUrl: null });
    const disabled = await newPublisher();
    await db.updateTable('publishers').set({ disabled_at: now }).where('id', '=', disabled).execute();
    const ids = await listImportablePublisherIds(db);
    expect(ids).toContain(due);
    expect(ids).not.toContain(unapproved);
    expect(ids).not.toContain(noFeed);
    expect(ids).not.toContain(disabled);
  });
});

describe('getImportablePublisher', () => {
  it('says why a publisher cannot be imported now', async () => {
    await expect(getImportablePublisher(db, await newPublisher({ approved: false }))).rejects.toMatchObject({
      code: 'PUBLISHER_NOT_IMPORTABLE',
      message: expect.stringContaining('not approved'),
    });
    await expect(getImportablePublisher(db, await newPublisher({ feedUrl: null }))).rejects.toMatchObject({
      message: expect.stringContaining('no feed URL'),
    });
    await expect(getImportablePublisher(db, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 'PUBLISHER_NOT_FOUND',
    });
  });
});

describe('previewFeedImport', () => {
  it('maps items exactly as the import would, and saves nothing', async () => {
    const publisherId = await newPublisher({ autoApprove: false });
    const publisher = await getPublisherFeedSettings(db, publisherId);
    const drafts = previewFeedImport(publisher, [feedItem(1, { categories: ['World'] })], now);
    expect(drafts).toEqual([
      {
        article: expect.objectContaining({
          title: 'Story 1',
          status: 'pending',
          tags: ['Planet', 'World'],
          hostSites: [],
        }),
        decision: { outcome: 'import', rule: null },
      },
    ]);
    expect(await articlesOf(publisherId)).toEqual([]);
  });
});
