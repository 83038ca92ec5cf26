import { describe, expect, it } from 'vitest';
import { toImportedArticle } from '../src/imports/imported-article';

// How the excerpt is made from text or HTML is @newsroom/html's (its excerpt.test.ts); which one an import uses is here.

describe('the excerpt of an imported article', () => {
  const publisher = { id: 'p', name: 'Planet', defaultTags: [], autoApprove: true, hostSites: [] };
  const item = {
    guid: 'g',
    title: 'T',
    body: '<p>Body paragraph.</p><p>Second.</p>',
    url: null,
    thumbnail: null,
    image: null,
    categories: [],
    publishedAt: null,
  };

  it("is the feed item's summary when it has one", () => {
    const draft = toImportedArticle(
      { ...item, summary: 'The summary, as the feed gives it.' },
      publisher,
      new Date(),
    );
    expect(draft.excerpt).toBe('The summary, as the feed gives it.');
  });

  it("is the body's first paragraph otherwise", () => {
    expect(toImportedArticle(item, publisher, new Date()).excerpt).toBe('Body paragraph.');
    expect(toImportedArticle({ ...item, summary: null }, publisher, new Date()).excerpt).toBe(
      'Body paragraph.',
    );
  });
});
