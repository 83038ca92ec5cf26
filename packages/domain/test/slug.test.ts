import slugify from 'slugify';
import { describe, expect, it } from 'vitest';
import { fallbackSlug, isValidSlug, nextFreeSlug, slugBase } from '../src/articles/slug';

describe('slugBase', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['  Breaking:   Markets fall 5%!  ', 'breaking-markets-fall-5percent'],
    ['Café déjà vu à Zürich', 'cafe-deja-vu-a-zurich'],
    ['Ærø & Øresund — Straße', 'aero-and-oresund-strasse'],
    ['Привет мир', 'privet-mir'],
    ['C++ vs. C#: which?', 'c-vs-c-which'],
  ])('%j -> %j', (title, slug) => {
    expect(slugBase(title)).toBe(slug);
  });

  it.each([[''], ['   '], ['東京ニュース'], ['🔥🔥🔥'], ['!!!']])('falls back for %j', (title) => {
    expect(slugBase(title)).toBe(fallbackSlug);
  });

  it('cuts long titles on a word boundary', () => {
    const slug = slugBase('word '.repeat(60));
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith('-')).toBe(false);
    expect(slug.split('-').every((w) => w === 'word')).toBe(true);
  });

  it('always yields a valid slug', () => {
    for (const title of ['Hello', 'Ærø', '東京', 'a'.repeat(500), '-x-', 'Ünïcödé Tïtlé']) {
      expect(isValidSlug(slugBase(title))).toBe(true);
    }
  });
});

describe('slugBase without slugify for plain ASCII titles', () => {
  // What slugBase returned before it had a shortcut for ASCII titles.
  const viaSlugify = (title: string) => {
    const slug = slugify(title, { lower: true, strict: true, trim: true });
    return slug.length === 0 ? fallbackSlug : slugBase(slug);
  };
  const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));

  it.each(ascii.map((char) => [char.charCodeAt(0), char]))(
    'treats character %i as slugify does',
    (_, char) => {
      for (const title of [char, `A${char}b`, `x ${char} Y`, `${char}${char}-1`]) {
        expect(slugBase(title)).toBe(viaSlugify(title));
      }
    },
  );

  it('gives the same slug as slugify for generated titles', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const words = [
      'Markets',
      'fall',
      '5%',
      'C++',
      '--',
      ' - ',
      '$',
      'é',
      'A&B',
      '_x_',
      "it's",
      '\t',
      '(2026)',
      'Zürich',
    ];
    for (let run = 0; run < 2_000; run++) {
      const length = 1 + Math.floor(random() * 12);
      const title = Array.from({ length }, () =>
        random() < 0.5
          ? (words[Math.floor(random() * words.length)] as string)
          : (ascii[Math.floor(random() * ascii.length)] as string),
      ).join(random() < 0.7 ? ' ' : '');
      expect(slugBase(title)).toBe(viaSlugify(title));
    }
  });
});

describe('nextFreeSlug', () => {
  it('keeps the base when free', () => {
    expect(nextFreeSlug('my-title', new Set())).toBe('my-title');
  });

  it('numbers collisions from 2', () => {
    expect(nextFreeSlug('my-title', new Set(['my-title']))).toBe('my-title-2');
    expect(nextFreeSlug('my-title', new Set(['my-title', 'my-title-2']))).toBe('my-title-3');
  });

  it('fills the first gap', () => {
    expect(nextFreeSlug('a', new Set(['a', 'a-3']))).toBe('a-2');
  });
});

describe('isValidSlug', () => {
  it.each(['a', 'my-title-2', '2026-budget'])('accepts %j', (slug) => expect(isValidSlug(slug)).toBe(true));
  it.each(['', 'My-Title', 'a--b', '-a', 'a-', 'a b', 'ä', 'a/b'])('refuses %j', (slug) =>
    expect(isValidSlug(slug)).toBe(false),
  );
});
