import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_BASE, toAbsoluteHttpUrl, undoPlaceholderBase } from '../src/content-url';

const ITEM = 'https://www.example.com/2026/03/story.html';

describe('toAbsoluteHttpUrl', () => {
  it.each([
    ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/a.jpg'],
    ['a.jpg', 'https://www.example.com/2026/03/a.jpg'],
    ['../a.jpg', 'https://www.example.com/2026/a.jpg'],
    ['/a.jpg', 'https://www.example.com/a.jpg'],
    ['//cdn.example.com/a.jpg', 'https://cdn.example.com/a.jpg'],
    ['  /a b.jpg ', 'https://www.example.com/a%20b.jpg'],
    ['javascript:alert(1)', null],
    ['data:image/png;base64,AA', null],
    ['mailto:a@b.c', null],
    ['', null],
  ])('%s -> %s', (value, expected) => {
    expect(toAbsoluteHttpUrl(value, ITEM)).toBe(expected);
  });

  it('returns null for relative URLs without a base', () => {
    expect(toAbsoluteHttpUrl('/a.jpg', null)).toBeNull();
  });
});

describe('the placeholder base', () => {
  it.each([
    'x.jpg',
    '../x.jpg',
    '../../../x.jpg',
    '/x.jpg',
    '/deep/path/x.jpg',
    '?page=2',
    '#top',
    'dir/x.jpg?a=1#b',
  ])('turns %s resolved against it back into the same relative URL', (relative) => {
    expect(undoPlaceholderBase(new URL(relative, PLACEHOLDER_BASE).href)).toBe(relative);
  });
});
