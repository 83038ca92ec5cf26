import { clientArticleJson, type PublishedArticle, withRenditions } from '@newsroom/domain';
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { articleInView } from '../../src/delivery/article-view';
import { ClientArticleSchema } from '../../src/schemas/client-article.schema';

// The client API writes whole articles with the domain's clientArticleJson (which webhook payloads use too):
// its bytes must stay the bytes the route's response schema writes, for every view, however odd the text.
const schemaWriter = fastJson(ClientArticleSchema as never) as (article: unknown) => string;

const odd =
  'quote " backslash \\ line\nbreak tab\t ctrl \u0001 \u2028 \u2029 lone \ud800 emoji 😀 é <b>&amp;';
const article: PublishedArticle = {
  id: '0b8f7c52-1f1e-4a53-9e3b-7f9f5d0c1a11',
  title: odd,
  slug: 'a-slug',
  excerpt: `${'x'.repeat(50)}${odd}`,
  standfirst: odd,
  bylines: [
    { name: odd, url: 'https://example.com/people/a' },
    { name: 'Agency', url: null },
  ],
  body: `<p>${odd.repeat(20)}</p>`,
  tags: ['News', odd],
  tagObjects: [
    { name: 'News', slug: 'news' },
    { name: odd, slug: 'odd' },
  ],
  category: null,
  section: 'World',
  thumbnail: null,
  thumbnailMeta: null,
  image: 'https://images.example/x.png',
  imageMeta: {
    alt: odd,
    caption: odd,
    credit: null,
    width: 1600,
    height: 900,
    focalPoint: { x: 0.25, y: 0.75 },
  },
  renditions: null,
  hostSites: ['alpha', 'beta'],
  urls: { alpha: 'https://alpha.example/a-slug', beta: 'https://beta.example/news/a-slug' },
  isAggregated: true,
  source: 'Publisher',
  sourceUrl: null,
  sourcePublishedAt: new Date('2020-01-02T03:04:05.678Z'),
  publishedAt: new Date(1_700_000_000_123),
  updatedAt: new Date(1_700_000_100_000),
  corrections: [{ text: odd, at: new Date(1_700_000_050_000) }],
};
const variants: PublishedArticle[] = [
  article,
  {
    ...article,
    urls: {},
    hostSites: [],
    tags: [],
    tagObjects: [],
    isAggregated: false,
    source: null,
    sourcePublishedAt: null,
    standfirst: null,
    bylines: [],
    imageMeta: null,
    corrections: [],
  },
  { ...article, title: 'Short', body: '' },
  // With an image proxy: signed renditions of the image (and none of the missing thumbnail).
  withRenditions(article, { baseUrl: 'https://img.example', keyHex: 'abcd', saltHex: '0102' }),
];
const views = [
  { siteId: null, siteSlug: null },
  { siteId: 'site-a', siteSlug: 'alpha' },
  { siteId: 'site-c', siteSlug: 'gamma' },
];

describe('clientArticleJson', () => {
  it('writes the bytes the ClientArticle schema writes, in the network view and in a site view', () => {
    for (const variant of variants) {
      for (const view of views) {
        const scoped = articleInView(variant, view);
        expect(clientArticleJson(scoped)).toBe(schemaWriter(scoped));
      }
    }
  });

  it('with urls after hostSites, writes what webhook payloads always carried (the article object itself)', () => {
    for (const variant of variants) {
      expect(clientArticleJson(variant, 'afterHostSites')).toBe(JSON.stringify(variant));
    }
  });
});
