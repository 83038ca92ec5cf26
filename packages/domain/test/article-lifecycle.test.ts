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
  ['rejected', 'back-to-pending', 'pending'],
];
const actions: ArticleAction[] = ['publish', 'unpublish', 'approve', 'reject', 'back-to-pending'];

describe('article lifecycle', () => {
  it.each(legal)('%s --%s--> %s', (from, action, to) => {
    expect(nextStatus(from, action)).toBe(to);
  });

  // published -> back-to-pending depends on how it was published: tested on its own below.
  const illegal = articleStatuses.flatMap((from) =>
    actions
      .filter((action) => !legal.some(([f, a]) => f === from && a === action))
      .filter((action) => !(from === 'published' && action === 'back-to-pending'))
      .map((action) => [from, action] as const),
  );

  it('has 14 illegal transitions out of 20 pairs, and one that depends on a review', () => {
    expect(illegal).toHaveLength(14);
  });

  it('moves a published article back to pending only when a review published it', () => {
    expect(nextStatus({ status: 'published', reviewed: true }, 'back-to-pending')).toBe('pending');
    expect(() => nextStatus({ status: 'published', reviewed: false }, 'back-to-pending')).toThrow(
      'Cannot move an article back to pending unless it was approved or rejected in review',
    );
    expect(() => nextStatus('published', 'back-to-pending')).toThrow(InvalidTransitionError);
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
