import { describe, expect, it } from 'vitest';
import { defaultImportRules, type ImportRules, validateImportRules } from '../src/import-rules';
import { decideByKeywords, decideFeedItems, itemText, oldestPositions } from '../src/imports/import-decision';
import { type ImportableFeedItem, importedTags, toImportedArticle } from '../src/imports/imported-article';

const rules = (overrides: Partial<ImportRules>): ImportRules => validateImportRules(overrides);

function item(n: number, overrides: Partial<ImportableFeedItem> = {}): ImportableFeedItem {
  return {
    guid: `g${n}`,
    title: `Story ${n}`,
    body: `<p>Body ${n}</p>`,
    url: null,
    thumbnail: null,
    image: null,
    categories: [],
    publishedAt: new Date(Date.UTC(2026, 10, 1, n)),
    ...overrides,
  };
}

describe('validateImportRules', () => {
  it('fills in defaults, trims, collapses spaces and drops duplicate keywords in any case', () => {
    expect(validateImportRules({})).toEqual(defaultImportRules);
    expect(
      validateImportRules({
        includeKeywords: ['  Climate   change ', 'climate CHANGE', 'Energy'],
        defaultCategory: '  News ',
        defaultSection: '',
      }),
    ).toMatchObject({
      includeKeywords: ['Climate change', 'Energy'],
      defaultCategory: 'News',
      defaultSection: null,
    });
  });

  it.each([
    [{ excludeKeywords: ['ok', '  '] }, 'excludeKeywords[1]:'],
    [{ includeKeywords: ['!!!'] }, 'includeKeywords[0]:'],
    [{ includeKeywords: ['x'.repeat(101)] }, 'includeKeywords[0]:'],
    [{ includeKeywords: Array.from({ length: 51 }, (_, i) => `k${i}`) }, 'includeKeywords:'],
    [{ maxTags: 0 }, 'maxTags:'],
    [{ maxTags: 21 }, 'maxTags:'],
    [{ maxTags: 2.5 }, 'maxTags:'],
    [{ maxNewItemsPerFetch: 0 }, 'maxNewItemsPerFetch:'],
    [{ maxNewItemsPerFetch: 1001 }, 'maxNewItemsPerFetch:'],
    [
      {
        tagMappings: [
          { from: 'Sport', to: 'sports' },
          { from: 'SPORT', to: null },
        ],
      },
      'tagMappings[1].from:',
    ],
    [{ tagMappings: [{ from: ' ', to: 'x' }] }, 'tagMappings[0].from:'],
    [{ tagMappings: [{ from: 'a', to: ' ' }] }, 'tagMappings[0].to:'],
    [{ tagMappings: [{ from: 'a', to: 'x'.repeat(61) }] }, 'tagMappings[0].to:'],
    [{ defaultCategory: 'x'.repeat(101) }, 'defaultCategory:'],
  ])('refuses %j naming the rule', (input, rule) => {
    expect(() => validateImportRules(input as Partial<ImportRules>)).toThrow(
      expect.objectContaining({
        code: 'INVALID_IMPORT_RULE',
        message: expect.stringMatching(`^${rule.replace(/[[\].]/g, '\\$&')}`),
      }),
    );
  });
});

describe('keyword rules', () => {
  it('matches whole words in any case, in the title or in the text of the body', () => {
    const r = rules({ excludeKeywords: ['sport'] });
    expect(decideByKeywords({ title: 'SPORT results', body: '' }, r)).toEqual({
      outcome: 'skip',
      rule: 'excludeKeywords',
      keyword: 'sport',
    });
    expect(decideByKeywords({ title: 'x', body: '<p>All the <b>Sport</b>.</p>' }, r).outcome).toBe('skip');
    expect(decideByKeywords({ title: 'Sporty cars and transport', body: '' }, r)).toEqual({
      outcome: 'import',
      rule: null,
    });
  });

  it('matches words with accents and phrases across any whitespace, and ignores markup', () => {
    const r = rules({ includeKeywords: ['élection', 'climate change'] });
    expect(decideByKeywords({ title: "L'Élection", body: '' }, r)).toMatchObject({
      outcome: 'import',
      keyword: 'élection',
    });
    expect(decideByKeywords({ title: 'x', body: '<p>climate\n  change</p>' }, r)).toMatchObject({
      outcome: 'import',
    });
    expect(
      decideByKeywords({ title: 'x', body: '<a href="https://e.example/climate change">y</a>' }, r),
    ).toEqual({
      outcome: 'skip',
      rule: 'includeKeywords',
    });
    expect(itemText({ title: 'T', body: '<p>a&amp;b &#233;t&#xE9;</p>' })).toContain('a&b été');
  });

  it('checks exclude keywords before include keywords', () => {
    const r = rules({ includeKeywords: ['economy'], excludeKeywords: ['opinion'] });
    expect(decideByKeywords({ title: 'Opinion: the economy', body: '' }, r)).toMatchObject({
      outcome: 'skip',
      rule: 'excludeKeywords',
      keyword: 'opinion',
    });
    expect(decideByKeywords({ title: 'The economy grew', body: '' }, r)).toMatchObject({
      outcome: 'import',
      rule: 'includeKeywords',
      keyword: 'economy',
    });
  });

  it('treats regular-expression characters in keywords literally', () => {
    const r = rules({ includeKeywords: ['c++ (lang)'] });
    expect(decideByKeywords({ title: 'About c++ (lang) today', body: '' }, r).outcome).toBe('import');
    expect(decideByKeywords({ title: 'About cc (lang)', body: '' }, r).outcome).toBe('skip');
  });
});

describe('decideFeedItems', () => {
  it('skips already imported items first, then applies keyword rules', () => {
    const items = [item(1, { title: 'Sport today' }), item(2), item(3)];
    expect(decideFeedItems(items, rules({ excludeKeywords: ['sport'] }), new Set(['g2']))).toEqual([
      { outcome: 'skip', rule: 'excludeKeywords', keyword: 'sport' },
      { outcome: 'skip', rule: 'alreadyImported' },
      { outcome: 'import', rule: null },
    ]);
  });

  it('imports the oldest new items up to the cap; the newer ones wait', () => {
    // Newest first, as feeds list them: g5 (newest) ... g1 (oldest); g2 already imported.
    const items = [5, 4, 3, 2, 1].map((n) => item(n));
    const decisions = decideFeedItems(items, rules({ maxNewItemsPerFetch: 2 }), new Set(['g2']));
    // The new ones are g5, g4, g3, g1; the oldest two of them are g3 and g1.
    expect(decisions.map((d) => d.outcome)).toEqual(['wait', 'wait', 'import', 'skip', 'import']);
    expect(decisions[0]).toEqual({ outcome: 'wait', rule: 'maxNewItemsPerFetch' });
  });

  it('counts undated items as the oldest, in reverse feed order', () => {
    const items = [item(1, { publishedAt: null }), item(2), item(3, { publishedAt: null })];
    expect([...oldestPositions(items, 2)].sort()).toEqual([0, 2]);
    expect([...oldestPositions(items, 1)]).toEqual([2]);
  });
});

describe('tag rules', () => {
  it('maps source categories to our tags or drops them, case-insensitively, defaults first', () => {
    const r = rules({
      tagMappings: [
        { from: 'Soccer', to: 'Football' },
        { from: 'breaking', to: null },
      ],
    });
    expect(importedTags(['Sport'], ['SOCCER', 'Breaking', 'Clubs'], r)).toEqual([
      'Sport',
      'Football',
      'Clubs',
    ]);
  });

  it('caps the tags per article', () => {
    expect(importedTags(['a', 'b'], ['c', 'd'], rules({ maxTags: 3 }))).toEqual(['a', 'b', 'c']);
  });

  it('gives imported articles the default category and section', () => {
    const draft = toImportedArticle(
      item(1, { categories: ['Soccer'] }),
      {
        id: 'p',
        name: 'P',
        defaultTags: [],
        autoApprove: false,
        hostSites: [],
        importRules: rules({
          defaultCategory: 'Sport',
          defaultSection: 'Local',
          tagMappings: [{ from: 'soccer', to: 'Football' }],
        }),
      },
      new Date(),
    );
    expect(draft).toMatchObject({ category: 'Sport', section: 'Local', tags: ['Football'] });
  });
});
