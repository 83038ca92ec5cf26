import { describe, expect, it } from 'vitest';
import {
  type ImportableFeedItem,
  importedPublishedAt,
  importedTags,
  maxImportedTags,
  toImportedArticle,
} from '../src/imports/imported-article';

const now = new Date('2026-11-22T10:00:00Z');
const item: ImportableFeedItem = {
  guid: 'urn:item:1',
  title: 'Rates held steady',
  body: '<p>The bank held rates.</p>',
  url: 'https://news.example/rates',
  thumbnail: 'https://news.example/rates-small.jpg',
  image: 'https://news.example/rates.jpg',
  categories: ['Economy', 'economy', 'Banks'],
  publishedAt: new Date('2026-11-22T08:30:00Z'),
};
const publisher = {
  id: 'p-1',
  name: 'Daily Planet',
  defaultTags: ['Finance', 'ECONOMY'],
  autoApprove: true,
  hostSites: ['metro'],
};

describe('imported tags', () => {
  it('puts the publisher defaults first and drops case-insensitive duplicates, first spelling kept', () => {
    expect(importedTags(['Finance', 'ECONOMY'], ['Economy', 'economy', 'Banks'])).toEqual([
      'Finance',
      'ECONOMY',
      'Banks',
    ]);
  });

  it('trims, collapses whitespace, drops empty and overlong tags', () => {
    expect(importedTags(['  World   News '], ['', '   ', 'x'.repeat(101), 'Ok'])).toEqual([
      'World News',
      'Ok',
    ]);
  });

  it('keeps at most 20 tags, defaults first', () => {
    const categories = Array.from({ length: 30 }, (_, i) => `c${i}`);
    const tags = importedTags(['default'], categories);
    expect(tags).toHaveLength(maxImportedTags);
    expect(tags[0]).toBe('default');
  });
});

describe('imported publishedAt', () => {
  it('is the item date when published at once', () => {
    expect(importedPublishedAt('published', item.publishedAt, now)).toEqual(item.publishedAt);
  });
  it('is the import time when the item has no date or a future one', () => {
    expect(importedPublishedAt('published', null, now)).toEqual(now);
    expect(importedPublishedAt('published', new Date('2027-01-01T00:00:00Z'), now)).toEqual(now);
  });
  it('is null while pending review', () => {
    expect(importedPublishedAt('pending', item.publishedAt, now)).toBeNull();
  });
});

describe('toImportedArticle', () => {
  it('maps an item to an aggregated, published article when the publisher auto-approves', () => {
    expect(toImportedArticle(item, publisher, now)).toEqual({
      title: 'Rates held steady',
      body: '<p>The bank held rates.</p>',
      excerpt: 'The bank held rates.',
      tags: ['Finance', 'ECONOMY', 'Banks'],
      category: null,
      section: null,
      thumbnail: 'https://news.example/rates-small.jpg',
      image: 'https://news.example/rates.jpg',
      thumbnailMeta: null,
      imageMeta: null,
      bylines: [],
      standfirst: null,
      status: 'published',
      isAggregated: true,
      source: 'Daily Planet',
      sourceUrl: 'https://news.example/rates',
      rssFeedGuid: 'urn:item:1',
      publisherId: 'p-1',
      publishedAt: item.publishedAt,
      sourcePublishedAt: item.publishedAt,
      hostSites: ['metro'],
    });
  });

  it('leaves the article pending, with the item date kept, when the publisher does not auto-approve', () => {
    const draft = toImportedArticle(item, { ...publisher, autoApprove: false }, now);
    expect(draft.status).toBe('pending');
    expect(draft.publishedAt).toBeNull();
    expect(draft.sourcePublishedAt).toEqual(item.publishedAt);
  });

  it('uses the one picture for both fields when the feed has only one', () => {
    const onlyThumb = toImportedArticle({ ...item, image: null }, publisher, now);
    expect([onlyThumb.thumbnail, onlyThumb.image]).toEqual([item.thumbnail, item.thumbnail]);
    const onlyImage = toImportedArticle({ ...item, thumbnail: null }, publisher, now);
    expect([onlyImage.thumbnail, onlyImage.image]).toEqual([item.image, item.image]);
  });

  it('takes the feed authors as bylines, its standfirst, and each picture with its own metadata', () => {
    const meta = { alt: null, caption: 'Rates', credit: 'Reuters', width: 800, height: 600 };
    const draft = toImportedArticle(
      {
        ...item,
        thumbnail: null,
        imageMeta: meta,
        authors: [{ name: 'Ann Lee', url: 'https://news.example/ann' }],
        standfirst: 'Held again.',
      },
      publisher,
      now,
    );
    expect(draft).toMatchObject({
      bylines: [{ name: 'Ann Lee', url: 'https://news.example/ann', userId: null }],
      standfirst: 'Held again.',
      // One picture serves both fields, and its metadata with it.
      thumbnail: item.image,
      thumbnailMeta: { ...meta, focalPoint: null },
      imageMeta: { ...meta, focalPoint: null },
    });
  });

  it('gives an untitled item a title', () => {
    expect(toImportedArticle({ ...item, title: '  ' }, publisher, now).title).toBe('Untitled');
  });
});
