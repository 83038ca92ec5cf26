import { useRef, useState } from 'react';
import type { Article, VersionedArticle } from '../../../api/articles';
import { useCanEach } from '../../../api/permissions';
import { type ReviewTransition, useReviewTransition } from '../../../api/review';
import { Button } from '../../../components/button';
import { ReasonField } from '../../../components/reason-field';
import { useToast } from '../../../components/toaster';
import { formatDateTime } from '../../../lib/format';

const undoWindowMs = 10_000;
const done: Record<ReviewTransition, string> = {
  approve: 'Approved',
  reject: 'Rejected',
  'back-to-pending': 'Back to pending',
};

/**
 * The review part of the editor's status card: Approve / Reject (with an optional reason) on a pending
 * article, Back to pending on one a review decided, and the decision's reason. Each decision's toast
 * offers Undo for 10 seconds.
 */
export function ReviewDecisionActions({
  article,
  dirty,
  saveFirst,
  onTransitioned,
}: {
  article: Article;
  dirty: boolean;
  saveFirst(): Promise<VersionedArticle | null>;
  onTransitioned(saved: VersionedArticle): void;
}) {
  const toast = useToast();
  const transition = useReviewTransition();
  const [reason, setReason] = useState('');
  const decided = article.reviewedAt !== null && article.status !== 'pending';
  // Each decision shows only when the policy allows it on this article.
  const can = useCanEach() ?? (() => false);
  const itself = { kind: 'article', article } as const;
  // The toast's Undo may come seconds later: it must see the editor as it is then, not as it was.
  const latest = useRef({ dirty, onTransitioned });
  latest.current = { dirty, onTransitioned };

  async function run(action: ReviewTransition) {
    // Deciding on what is on screen: unsaved changes are saved first (a conflict stops here).
    if (dirty && !(await saveFirst())) return;
    const saved = await transition.mutateAsync({ id: article.id, action, reason }).catch(() => null);
    if (!saved) return; // the query client's handler has said why
    onTransitioned(saved);
    setReason('');
    toast({
      kind: 'success',
      title: done[action],
      ...(action !== 'back-to-pending' && {
        duration: undoWindowMs,
        action: {
          label: 'Undo',
          altText: `Undo: move “${article.title}” back to pending`,
          onAction: () => void undo(),
        },
      }),
    });
  }

  async function undo() {
    const saved = await transition
      .mutateAsync({ id: article.id, action: 'back-to-pending' })
      .catch(() => null);
    if (!saved) return;
    // With edits typed since, the form keeps them (a save then offers to overwrite the new version).
    if (!latest.current.dirty) latest.current.onTransitioned(saved);
    toast({ kind: 'info', title: 'Back to pending' });
  }

  if (article.status === 'pending') {
    const canApprove = can('approveArticle', itself);
    const canReject = can('rejectArticle', itself);
    if (!canApprove && !canReject) return null;
    return (
      <div className="stack">
        <ReasonField value={reason} onChange={setReason} />
        <div className="row">
          {canApprove && (
            <Button
              variant="primary"
              data-operation="approveArticle"
              busy={transition.isPending}
              onClick={() => void run('approve')}
            >
              {dirty ? 'Save and approve' : 'Approve'}
            </Button>
          )}
          {canReject && (
            <Button
              variant="danger"
              data-operation="rejectArticle"
              busy={transition.isPending}
              onClick={() => void run('reject')}
            >
              {dirty ? 'Save and reject' : 'Reject'}
            </Button>
          )}
        </div>
      </div>
    );
  }
  if (!decided) return null;
  return (
    <div className="stack">
      <p className="muted">
        {article.status === 'rejected' ? 'Rejected' : 'Approved'} in review{' '}
        {article.reviewedAt && formatDateTime(article.reviewedAt)}
        {article.reviewReason ? `: “${article.reviewReason}”` : ''}
      </p>
      {can('moveArticleBackToPending', itself) && (
        <div className="row">
          <Button
            data-operation="moveArticleBackToPending"
            busy={transition.isPending}
            onClick={() => void run('back-to-pending')}
          >
            Back to pending
          </Button>
        </div>
      )}
    </div>
  );
}
