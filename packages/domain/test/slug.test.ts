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

describe('a title with markup characters', () => {
  it('makes its slug from the words a reader sees', () => {
    expect(slugBase('Police find <script> in harbour')).toBe('police-find-script-in-harbour');
    expect(slugBase('A <b> tag & "quotes"')).toBe('a-b-tag-and-quotes');
    expect(slugBase('1<2 and 3>2')).toBe('1-2-and-3-2');
  });
});
