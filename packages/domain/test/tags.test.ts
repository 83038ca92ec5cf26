import { describe, expect, it } from 'vitest';
import { normaliseTags } from '../src/articles/tags';

describe('normaliseTags', () => {
  it('trims, collapses inner whitespace and drops empty tags', () => {
    expect(normaliseTags(['  local  news ', '', '   ', 'sport'])).toEqual(['local news', 'sport']);
  });

  it('removes duplicates regardless of case, keeping the first spelling and the order', () => {
    expect(normaliseTags(['COVID-19', 'health', 'covid-19', 'Health', 'x'])).toEqual([
      'COVID-19',
      'health',
      'x',
    ]);
  });
});
