import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importFeedItems } from '@newsroom/domain';
import { parseFeed } from '@newsroom/feeds';
import { afterAll, describe, expect, it } from 'vitest';
import { insertSite, issueSiteKey } from '../support/content-fixtures';
import { createTestApp } from '../support/test-app';

// Issue 32 end to end: a real-world-shaped feed (NYT/BBC-style RSS: dc:creator, description beside
// content:encoded, media:content with credit and description, a figure) imported through the real parser
// and import, then read through every output: by slug, the listing, /all, RSS (parsed back by our own feed
// parser: what we write, a reader reads), JSON Feed and the JSON-LD.
const { app, db, close } = await createTestApp();
afterAll(close);

const metro = await insertSite(db, 'metro');
await db
  .updateTable('sites')
  .set({ name: 'Metro', domain: 'metro.example.com', article_url_template: 'https://{domain}/news/{slug}' })
  .where('id', '=', metro)
  .execute();
const metroKey = (await issueSiteKey(db, metro)).key;
const { id: publisherId } = await db
  .insertInto('publishers')
  .values({
    name: 'NYT Wire',
    feed_url: 'https://www.nytimes.example/feed',
    approved: true,
    auto_approve: true,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
await db
  .insertInto('publisher_default_sites')
  .values({ publisher_id: publisherId, site_id: metro })
  .execute();

const fixture = readFileSync(
  join(import.meta.dirname, '../../../../packages/feeds/test/fixtures/article-fields/nyt-style.rss'),
);
const parsed = await parseFeed(fixture, { url: 'https://www.nytimes.example/feed', contentType: null });
await importFeedItems(db, publisherId, {
  notModified: false,
  items: parsed.items,
  etag: null,
  lastModified: null,
});

const get = (url: string) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': metroKey } });

const expected = {
  standfirst:
    'The city’s busiest crossing is back in service, weeks ahead of schedule, after engineers found the cracks were shallower than feared.',
  bylines: [
    { name: 'Ann Lee', url: null },
    { name: 'Bo Chen', url: null },
    { name: 'Carla Diaz', url: null },
  ],
  image: 'https://static01.nyt.example/images/2026/11/27/bridge-superJumbo.jpg',
  imageMeta: {
    alt: 'The Harbour Bridge at dusk on Sunday, the day before it reopened.',
    caption: 'The Harbour Bridge at dusk on Sunday, the day before it reopened.',
    credit: 'Ann Lee for The New York Times',
    width: 1920,
    height: 1080,
    focalPoint: null,
  },
};

describe('an imported real-world-shaped feed, through every output', () => {
  it('fills bylines, standfirst and image metadata, read by slug, in listings and /all', async () => {
    const list = (await get('/posts?author=bo-chen')).json().data;
    expect(list).toHaveLength(1);
    const slug = list[0].slug as string;
    expect(list[0]).toMatchObject(expected);
    expect((await get(`/article/${slug}`)).json()).toMatchObject(expected);
    const all = (await get('/all?fields=slug,bylines,standfirst,imageMeta')).json();
    expect(all.data ?? all).toContainEqual({
      slug,
      bylines: expected.bylines,
      standfirst: expected.standfirst,
      imageMeta: expected.imageMeta,
    });
    // The inline figure kept its caption and the image its alt and size.
    expect((await get(`/article/${slug}`)).json().body).toContain(
      'alt="Commuters cross the bridge at dawn" width="1024" height="683" /><figcaption>Commuters at dawn on Monday.',
    );
    const ld = (await get(`/article/${slug}?include=structuredData`)).json().structuredData;
    expect(ld.author.map((a: { name: string }) => a.name)).toEqual(['Ann Lee', 'Bo Chen', 'Carla Diaz']);
  });

  it('writes RSS that our own feed parser reads back with the same authors, standfirst and picture metadata', async () => {
    const response = await get('/feed.xml');
    expect(response.statusCode).toBe(200);
    const back = await parseFeed(Buffer.from(response.body), {
      url: 'https://metro.example.com/feed.xml',
      contentType: 'application/rss+xml',
    });
    const item = back.items.find((i) => i.title === 'Harbour Bridge Reopens After Six Weeks of Repairs');
    expect(item?.authors).toEqual(expected.bylines);
    expect(item?.standfirst).toBe(expected.standfirst);
    expect(item?.image).toBe(expected.image);
    const { focalPoint: _, ...feedMeta } = expected.imageMeta;
    expect(item?.imageMeta).toEqual(feedMeta);
  });

  it('writes JSON Feed authors, summary (the standfirst) and image', async () => {
    const feed = (await get('/feed.json')).json();
    const item = feed.items.find((i: { title: string }) => i.title.startsWith('Harbour Bridge'));
    expect(item).toMatchObject({
      authors: [{ name: 'Ann Lee' }, { name: 'Bo Chen' }, { name: 'Carla Diaz' }],
      summary: expected.standfirst,
      image: expected.image,
    });
  });
});
