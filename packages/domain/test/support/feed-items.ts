import type { ImportableFeedItem } from '../../src/imports/imported-article';

/** Feed item number `n`, as the feed package would hand it over (fields overridable). */
export const feedItem = (n: number, overrides: Partial<ImportableFeedItem> = {}): ImportableFeedItem => ({
  guid: `guid-${n}`,
  title: `Story ${n}`,
  body: `<p>Body ${n}</p>`,
  url: `https://news.example/${n}`,
  thumbnail: null,
  image: null,
  categories: [],
  publishedAt: new Date('2026-11-21T10:00:00Z'),
  ...overrides,
});
