import type { ArticleStatus } from '../db/tables';
import { InvalidTransitionError } from '../errors';

export const articleStatuses = [
  'draft',
  'pending',
  'published',
  'rejected',
] as const satisfies readonly ArticleStatus[];

/** What an administrator can do to an article's status. Editing is not here: it never changes status. */
export type ArticleAction = 'publish' | 'unpublish' | 'approve' | 'reject';

const transitions: Record<ArticleAction, { from: ArticleStatus; to: ArticleStatus }> = {
  publish: { from: 'draft', to: 'published' },
  unpublish: { from: 'published', to: 'draft' },
  approve: { from: 'pending', to: 'published' },
  reject: { from: 'pending', to: 'rejected' },
};

/** The status after `action`, or an InvalidTransitionError when the lifecycle forbids it. */
export function nextStatus(current: ArticleStatus, action: ArticleAction): ArticleStatus {
  const transition = transitions[action];
  if (transition.from !== current) throw new InvalidTransitionError(current, action);
  return transition.to;
}

/** Manual articles start as drafts; imported ones are published at once only when the publisher auto-approves. */
export function initialStatus(
  origin: { kind: 'manual' } | { kind: 'imported'; autoApprove: boolean },
): ArticleStatus {
  if (origin.kind === 'manual') return 'draft';
  return origin.autoApprove ? 'published' : 'pending';
}
