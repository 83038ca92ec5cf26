import type { ArticleStatus } from '../db/tables';
import { InvalidTransitionError } from '../errors';

export const articleStatuses = [
  'draft',
  'pending',
  'published',
  'rejected',
] as const satisfies readonly ArticleStatus[];

/** What an administrator can do to an article's status. Editing is not here: it never changes status. */
export type ArticleAction =
  | 'publish'
  | 'unpublish'
  | 'approve'
  | 'reject'
  | 'back-to-pending'
  | 'submit'
  | 'send-back';

export const articleActions = [
  'publish',
  'unpublish',
  'approve',
  'reject',
  'back-to-pending',
  'submit',
  'send-back',
] as const satisfies readonly ArticleAction[];

/**
 * The review decisions: they record when they were made and an optional reason for the publisher (approve,
 * reject) or the contributor (send back: the note shown with the draft).
 */
export const reviewDecisions = ['approve', 'reject', 'send-back'] as const satisfies readonly ArticleAction[];
export type ReviewDecision = (typeof reviewDecisions)[number];

/** What the lifecycle needs to know about an article: its status, and whether a review decided it. */
export interface LifecycleState {
  status: ArticleStatus;
  /** True while the status is the result of an approve or reject (cleared by any other transition). */
  reviewed: boolean;
}

const transitions: Record<ArticleAction, { from: readonly ArticleStatus[]; to: ArticleStatus }> = {
  publish: { from: ['draft'], to: 'published' },
  unpublish: { from: ['published'], to: 'draft' },
  approve: { from: ['pending'], to: 'published' },
  reject: { from: ['pending'], to: 'rejected' },
  // Undoes a review decision: a rejected article, or one published by approval (not a manual or an
  // auto-approved one: those never were in the queue), goes back to the queue.
  'back-to-pending': { from: ['rejected', 'published'], to: 'pending' },
  // A contributor's draft joins the review queue (the same pending state imports use); an editor or reviewer
  // of its sites approves it (published) or sends it back to draft with a note.
  submit: { from: ['draft'], to: 'pending' },
  'send-back': { from: ['pending'], to: 'draft' },
};

/** The status after `action`, or an InvalidTransitionError when the lifecycle forbids it. */
export function nextStatus(current: ArticleStatus | LifecycleState, action: ArticleAction): ArticleStatus {
  const state = typeof current === 'string' ? { status: current, reviewed: false } : current;
  const transition = transitions[action];
  if (!transition.from.includes(state.status)) throw new InvalidTransitionError(state.status, action);
  if (action === 'back-to-pending' && state.status === 'published' && !state.reviewed) {
    throw new InvalidTransitionError(
      state.status,
      action,
      'Cannot move an article back to pending unless it was approved or rejected in review',
    );
  }
  return transition.to;
}

/** Manual articles start as drafts; imported ones are published at once only when the publisher auto-approves. */
export function initialStatus(
  origin: { kind: 'manual' } | { kind: 'imported'; autoApprove: boolean },
): ArticleStatus {
  if (origin.kind === 'manual') return 'draft';
  return origin.autoApprove ? 'published' : 'pending';
}
