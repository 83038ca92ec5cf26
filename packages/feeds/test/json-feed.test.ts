import { readFileSync } from 'node:fs';
import { executableParts, HOSTILE_HTML, unsafeUrl } from '@newsroom/test-support/hostile-html';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFeedFetcher,
  FeedError,
  type FeedFetcher,
  parseFeed,
  readFeed,
  readFeedPreview,
} from '../src/index';
import { looksLikeJsonFeed } from '../src/json-feed-document';
import { type LocalServer, onlyLoopbackServer, readFixture, startLocalServer } from './support/local-server';

const fixture = readFileSync(new URL('./fixtures/json-feed-1.1.json', import.meta.url));
const url = 'https://planet.example/feed.json';
const parse = (body: Buffer | string, contentType: string | null = 'application/feed+json') =>
  parseFeed(Buffer.from(body), { url, contentType });
const jsonFeed = (items: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'T', items, ...extra });

describe('JSON Feed 1.1', () => {
  it('maps items through the same normalisation as RSS and Atom', async () => {
    const feed = await parse(fixture);
    expect(feed).toMatchObject({ title: 'Daily Planet & Friends', link: 'https://planet.example/' });
    expect(feed.items).toHaveLength(3);
    const [first, second, third] = feed.items;
    expect(first).toEqual({
      guid: 'https://planet.example/2026/11/rates',
      title: 'Rates held <steady> & calm',
      body: '<p>The bank held rates. <a href="https://planet.example/more" rel="noopener noreferrer">More</a></p><img src="https://planet.example/2026/11/pic.jpg" />',
      url: 'https://planet.example/2026/11/rates',
      thumbnail: 'https://cdn.planet.example/rates-large.jpg',
      image: 'https://cdn.planet.example/rates-large.jpg',
      categories: ['Economy', 'Banks'],
      publishedAt: new Date('2026-11-22T08:30:00Z'),
      summary: 'The bank held rates.',
      // Issue 32: the summary is the body's start (no standfirst); authors from `authors`.
      standfirst: null,
      authors: [{ name: 'Lois Lane', url: null }],
      imageMeta: null,
      thumbnailMeta: null,
    });
    expect(second).toMatchObject({
      guid: '42',
      url: 'https://other.example/story',
      title: 'First paragraph with <b>no markup</b>. Second paragraph.',
      body: '<p>First paragraph with &lt;b&gt;no markup&lt;/b&gt;.</p><p>Second paragraph.</p>',
      image: 'https://cdn.planet.example/photo.png',
      publishedAt: new Date('2026-11-21T09:00:00Z'),
    });
    expect(third).toMatchObject({
      guid: 'https://planet.example/no-id',
      title: 'No id: the link is the guid',
      body: '<p>Only a summary</p>',
      publishedAt: null,
    });
  });

  it('sanitises the hostile corpus in content_html, titles and links', async () => {
    const items = HOSTILE_HTML.map((html, n) => ({
      id: `h${n}`,
      url: n % 2 ? 'javascript:alert(1)' : `/story/${n}`,
      title: `<script>alert(${n})</script><img src=x onerror=alert(1)> Title ${n}`,
      content_html: html,
      image: n % 2 ? 'http://10.0.0.1/private.jpg' : 'javascript:alert(1)',
      tags: [`<b>tag ${n}</b>`, 42, null, { evil: true }],
    }));
    const feed = await parse(jsonFeed(items, { __proto__: { polluted: true } }));
    expect(feed.items).toHaveLength(HOSTILE_HTML.length);
    for (const item of feed.items) {
      expect(executableParts(item.body)).toEqual([]);
      // A JSON Feed title is plain text: kept as the text it is (stored and shown as text), never parsed as markup.
      expect(item.title).toMatch(/^<script>alert\(\d+\)<\/script><img src=x onerror=alert\(1\)> Title \d+$/);
      expect(item.url === null || item.url.startsWith('https://planet.example/story/')).toBe(true);
      // The item's own (private or javascript:) image is refused; a public <img> of the body may stand in.
      for (const picture of [item.image, item.thumbnail]) {
        if (picture !== null) expect(unsafeUrl(picture)).toBeNull();
      }
      expect(item.categories).toHaveLength(1);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(feed.items[0]?.body).toContain('<p>Hello</p>');
  });

  it('is recognised by its content whatever the media type, and by application/feed+json', async () => {
    expect(looksLikeJsonFeed('  {"version"', 'text/plain')).toBe(true);
    expect(looksLikeJsonFeed('<rss>', 'application/feed+json')).toBe(false);
    expect(looksLikeJsonFeed('', 'application/feed+json; charset=utf-8')).toBe(true);
    expect((await parse(fixture, 'text/html')).items).toHaveLength(3);
    expect((await parse(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fixture]), null)).items).toHaveLength(
      3,
    );
  });

  it.each([
    ['invalid JSON', '{"version": "https://jsonfeed.org/version/1.1", "items": ['],
    ['JSON that is not a feed', '{"hello": "world"}'],
    ['an unknown version', jsonFeed([], { version: 'https://example.com/v9' })],
    ['items that are not a list', JSON.stringify({ version: 'https://jsonfeed.org/version/1', items: {} })],
  ])('refuses %s as NOT_A_FEED', async (_, body) => {
    await expect(parse(body)).rejects.toMatchObject({ code: 'NOT_A_FEED' });
  });

  it('accepts version 1.0 feeds too', async () => {
    const feed = await parse(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1',
        title: 'Old',
        items: [{ id: '1', content_text: 'x' }],
      }),
    );
    expect(feed.items.map((item) => item.guid)).toEqual(['1']);
  });
});

describe('JSON Feed over HTTP', () => {
  let server: LocalServer;
  let fetcher: FeedFetcher;
  beforeAll(async () => {
    server = await startLocalServer((request, response) => {
      if (request.url === '/rss') {
        response.writeHead(200, { 'content-type': 'application/rss+xml' });
        response.end(readFixture('rss-1.rss'));
        return;
      }
      const big = request.url === '/big.json';
      response.writeHead(200, { 'content-type': 'application/feed+json' });
      response.end(
        big
          ? jsonFeed(
              Array.from({ length: 2000 }, (_, n) => ({ id: `b${n}`, content_text: 'x'.repeat(1000) })),
            )
          : fixture,
      );
    });
    fetcher = createFeedFetcher({ isAllowedAddress: onlyLoopbackServer });
  });
  afterAll(async () => {
    await fetcher.close();
    await server.close();
  });

  it('reads a JSON Feed and shows it in the preview', async () => {
    const read = await readFeed(fetcher, { url: `${server.origin}/feed.json` });
    expect(read.notModified ? [] : read.items.map((item) => item.guid)).toHaveLength(3);
    const preview = await readFeedPreview(
      fetcher,
      { url: `${server.origin}/feed.json` },
      { maxItems: 2, maxBytes: 1 << 20 },
    );
    expect(preview.notModified ? null : preview.items.map((item) => item.title)).toEqual([
      'Rates held <steady> & calm',
      'First paragraph with <b>no markup</b>. Second paragraph.',
    ]);
    expect(preview.notModified ? null : preview.title).toBe('Daily Planet & Friends');
  });

  it('bounds a JSON Feed like an XML one: the fetch cap refuses it, the preview reads at most maxBytes', async () => {
    const small = createFeedFetcher({ isAllowedAddress: onlyLoopbackServer, maxBytes: 100_000 });
    try {
      await expect(readFeed(small, { url: `${server.origin}/big.json` })).rejects.toMatchObject({
        code: 'TOO_LARGE',
      });
    } finally {
      await small.close();
    }
    const preview = readFeedPreview(
      fetcher,
      { url: `${server.origin}/big.json` },
      { maxItems: 5, maxBytes: 100_000 },
    );
    await expect(preview).rejects.toBeInstanceOf(FeedError);
    await expect(preview).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('still reads RSS 1.0 next to it', async () => {
    const read = await readFeed(fetcher, { url: `${server.origin}/rss` });
    expect(read.notModified ? 0 : read.items.length).toBeGreaterThan(0);
  });
});
