import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { publisherChoicesQuery } from '../../../api/publishers';
import { pendingQuery, type ReviewAction, useReviewMany, useReviewOne } from '../../../api/review';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ChoiceFilter } from '../../../components/filter-fields';
import { PageHeader } from '../../../components/page-header';
import { ReasonField } from '../../../components/reason-field';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { useToast } from '../../../components/toaster';
import { ArticlePreview } from '../components/article-preview';
import { selectionAfter, stepSelection } from '../components/review-keys';
import { ReviewList } from '../components/review-list';
import { ReviewShortcuts } from '../components/review-shortcuts';
import { useOfferUndo } from '../components/use-offer-undo';
import { useReviewShortcuts } from '../components/use-review-shortcuts';
import './review-page.css';

const done: Record<ReviewAction, string> = { approve: 'Approved', reject: 'Rejected' };

/** /review: the pending queue, oldest first; the list on the left, the selected article on the right. */
export function ReviewPage({
  publisherId,
  onPublisherChange,
}: {
  publisherId: string | undefined;
  onPublisherChange(publisherId: string | undefined): void;
}) {
  const toast = useToast();
  const queue = useQuery(pendingQuery(publisherId));
  const publishers = useQuery(publisherChoicesQuery);
  const one = useReviewOne();
  const many = useReviewMany();
  const [selected, setSelected] = useState<string | null>(null);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  // Articles acted on: hidden at once (the next one is selected), shown again if the API refuses.
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [confirmReject, setConfirmReject] = useState(false);
  // The reason typed for the selected article (sent with its decision, shown to the publisher).
  const [reason, setReason] = useState<{ id: string | null; text: string }>({ id: null, text: '' });
  // The reason for the checked articles, asked with the bulk rejection.
  const [bulkReason, setBulkReason] = useState('');

  const allArticles = queue.data?.data ?? [];
  const articles = allArticles.filter((article) => !hidden.has(article.id));
  const ids = articles.map((article) => article.id);
  const current = selected !== null && ids.includes(selected) ? selected : (ids[0] ?? null);
  const checkedIds = ids.filter((id) => checked.has(id));

  function hide(gone: string[]) {
    const goneSet = new Set(gone);
    setSelected(selectionAfter(ids, current, goneSet));
    setHidden((previous) => new Set([...previous, ...gone]));
    setChecked((previous) => new Set([...previous].filter((id) => !goneSet.has(id))));
  }
  function unhide(back: string[]) {
    setHidden((previous) => new Set([...previous].filter((id) => !back.includes(id))));
  }
  const offerUndo = useOfferUndo((back) => {
    unhide(back);
    setSelected(back[0] ?? null);
  });

  function reviewOne(id: string, action: ReviewAction) {
    const title = articles.find((article) => article.id === id)?.title ?? 'the article';
    const text = reason.id === id ? reason.text : '';
    hide([id]);
    // mutateAsync: mutate's own callbacks run only for the latest call, and decisions come faster than answers.
    one
      .mutateAsync({ id, action, reason: text })
      .then(() => offerUndo([id], `${done[action]} “${title}”`))
      .catch(() => unhide([id]));
  }

  function reviewMany(action: ReviewAction, reason = '') {
    const batch = checkedIds;
    if (batch.length === 0) return;
    hide(batch);
    many
      .mutateAsync({ ids: batch, action, reason })
      .then(({ results }) => {
        setBulkReason('');
        const failed = results.filter((result) => !result.ok);
        unhide(failed.map((result) => result.id));
        const okIds = results.filter((result) => result.ok).map((result) => result.id);
        if (okIds.length > 0) offerUndo(okIds, `${done[action]} ${plural(okIds.length)}`);
        if (failed.length > 0) {
          toast({
            kind: 'error',
            title: `${plural(failed.length)} could not be ${action === 'approve' ? 'approved' : 'rejected'}`,
            description: failed[0]?.error?.message,
          });
        }
      })
      .catch(() => unhide(batch));
  }

  useReviewShortcuts((command) => {
    if (command === 'next' || command === 'previous') {
      setSelected(stepSelection(ids, current, command === 'next' ? 1 : -1));
    } else if (current) {
      reviewOne(current, command);
    }
  });

  // Only the hidden articles the loaded page still has are not counted yet: once the queue is read again
  // after a decision, its total already leaves them out (subtracting them again dropped the count by two).
  const stillListed = allArticles.filter((article) => hidden.has(article.id)).length;
  const total = queue.data ? Math.max(0, queue.data.meta.pagination.total - stillListed) : 0;

  return (
    <>
      <PageHeader title="Review">
        <p className="muted">
          Imported articles waiting for a decision, oldest first. Approving publishes; rejecting keeps the
          item out. Every decision can be undone: from its notification, or with Back to pending on its page.
        </p>
      </PageHeader>
      <div className="stack">
        <div className="row-between">
          <ChoiceFilter
            label="Publisher"
            allLabel="All publishers"
            choices={
              publishers.data?.data.map((publisher) => ({ value: publisher.id, label: publisher.name })) ?? []
            }
            value={publisherId}
            onChange={(publisher) => {
              setChecked(new Set());
              onPublisherChange(publisher);
            }}
          />
          <ReviewShortcuts />
        </div>
        {queue.isPending ? (
          <LoadingState label="Loading the queue…" />
        ) : queue.isError ? (
          <ErrorState error={queue.error} onRetry={() => queue.refetch()} />
        ) : articles.length === 0 ? (
          <EmptyState>
            {publisherId
              ? 'Nothing from this publisher is waiting for review.'
              : 'Nothing is waiting for review.'}
          </EmptyState>
        ) : (
          <div className="review-layout" aria-busy={queue.isFetching || undefined}>
            <section className="review-queue" aria-label="Queue">
              <div className="review-bulk">
                <label className="checkbox-field">
                  <input
                    type="checkbox"
                    checked={checkedIds.length === ids.length}
                    onChange={(event) => setChecked(event.target.checked ? new Set(ids) : new Set())}
                  />
                  <span>
                    {checkedIds.length > 0 ? `${checkedIds.length} selected` : 'Select all'} ·{' '}
                    <span className="muted">{plural(total)} pending</span>
                  </span>
                </label>
                {checkedIds.length > 0 && (
                  <div className="row">
                    <Button
                      size="small"
                      variant="primary"
                      busy={many.isPending}
                      onClick={() => reviewMany('approve')}
                    >
                      Approve selected ({checkedIds.length})
                    </Button>
                    <Button
                      size="small"
                      variant="danger"
                      busy={many.isPending}
                      onClick={() => setConfirmReject(true)}
                    >
                      Reject selected ({checkedIds.length})
                    </Button>
                  </div>
                )}
              </div>
              <ReviewList
                articles={articles}
                selectedId={current}
                checked={checked}
                onSelect={setSelected}
                onCheck={(id, on) =>
                  setChecked((previous) => {
                    const next = new Set(previous);
                    if (on) next.add(id);
                    else next.delete(id);
                    return next;
                  })
                }
              />
            </section>
            <section className="review-detail" aria-label="Preview">
              {current && (
                <ArticlePreview
                  key={current}
                  id={current}
                  reason={reason.id === current ? reason.text : ''}
                  onReasonChange={(text) => setReason({ id: current, text })}
                  onAction={(action) => reviewOne(current, action)}
                />
              )}
            </section>
          </div>
        )}
      </div>
      <ConfirmDialog
        open={confirmReject}
        onOpenChange={setConfirmReject}
        title={`Reject ${plural(checkedIds.length)}?`}
        confirmLabel="Reject"
        onConfirm={() => {
          setConfirmReject(false);
          reviewMany('reject', bulkReason);
        }}
      >
        <p>
          Rejected articles are not published, and their feed items are not imported again. The notification
          that follows offers Undo for 10 seconds; later, each one can be moved back to pending from its page.
        </p>
        <ReasonField
          hint="The publisher sees it with each article."
          value={bulkReason}
          onChange={setBulkReason}
        />
      </ConfirmDialog>
    </>
  );
}

function plural(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'article' : 'articles'}`;
}
