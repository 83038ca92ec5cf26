// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { sectionOf } from '../src/app/nav-section';

const links = [
  '/publishers',
  '/publishers/create',
  '/publishers/reports',
  '/articles',
  '/review',
  '/account',
];

describe('the navigation section of a path', () => {
  it.each([
    ['/publishers', '/publishers'],
    ['/publishers/5f0c7c5e-4a7b-4a57-9d43-1b7a3c2e9f10', '/publishers'],
    ['/publishers/create', '/publishers/create'],
    ['/publishers/reports/', '/publishers/reports'],
    ['/articles/new', '/articles'],
    ['/articles-archive', undefined],
    ['/', undefined],
  ])('%s -> %s', (path, section) => {
    expect(sectionOf(path, links)).toBe(section);
  });
});
