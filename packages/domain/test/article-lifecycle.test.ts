import { describe, expect, it } from 'vitest';
import {
  type ArticleAction,
  articleStatuses,
  initialStatus,
  nextStatus,
} from '../src/articles/article-lifecycle';
import type { ArticleStatus } from '../src/db/tables';
import { InvalidTransitionError } from '../src/errors';

const legal: Array<[ArticleStatus, ArticleAction, ArticleStatus]> = [
  ['draft', 'publish', 'published'],
  ['published', 'unpublish', 'draft'],
  ['pending', 'approve', 'published'],
  ['pending', 'reject', 'rejected'],
];
const actions: ArticleAction[] = ['publish', 'unpublish', 'approve', 'reject'];

describe('article lifecycle', () => {
  it.each(legal)('%s --%s--> %s', (from, action, to) => {
    expect(nextStatus(from, action)).toBe(to);
  });

  const illegal = articleStatuses.flatMap((from) =>
    actions
      .filter((action) => !legal.some(([f, a]) => f === from && a === action))
      .map((action) => [from, action] as const),
  );

  it('has 12 illegal transitions out of 16 pairs', () => {
    expect(illegal).toHaveLength(12);
  });

  it.each(illegal)('refuses to %s... from %s', (from, action) => {
    const attempt = () => nextStatus(from, action);
    expect(attempt).toThrow(InvalidTransitionError);
    expect(attempt).toThrow(`Cannot ${action} an article that is ${from}`);
  });

  it('names the state and action on the error', () => {
    try {
      nextStatus('rejected', 'publish');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_TRANSITION', from: 'rejected', action: 'publish' });
    }
  });

  it('starts manual articles as drafts', () => {
    expect(initialStatus({ kind: 'manual' })).toBe('draft');
  });

  it('publishes imported articles at once only with autoApprove', () => {
    expect(initialStatus({ kind: 'imported', autoApprove: true })).toBe('published');
    expect(initialStatus({ kind: 'imported', autoApprove: false })).toBe('pending');
  });
});
