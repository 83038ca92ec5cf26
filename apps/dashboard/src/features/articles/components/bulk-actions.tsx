import { useState } from 'react';
import type { ArticleSummary } from '../../../api/articles';
import { type BulkAction, type BulkResult, useBulkArticles } from '../../../api/articles';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useToast } from '../../../components/toaster';

const verbs: Record<'approve' | 'publish' | 'unpublish' | 'delete', string> = {
  approve: 'Approve',
  publish: 'Publish',
  unpublish: 'Unpublish',
  delete: 'Delete',
};
type ListAction = keyof typeof verbs;

/**
 * Approve, publish, unpublish or delete the selected articles in one request, after a confirmation; then
 * per-item results. Approving offers Undo (back to pending) in its toast for 10 seconds.
 */
export function BulkActions({
  selected,
  articles,
  onDone,
}: {
  selected: ReadonlySet<string>;
  articles: ArticleSummary[];
  onDone(): void;
}) {
  const bulk = useBulkArticles();
  const toast = useToast();
  const [action, setAction] = useState<ListAction | null>(null);
  const [results, setResults] = useState<{ action: BulkAction; results: BulkResult['results'] } | null>(null);
  const titles = new Map(articles.map((a) => [a.id, a.title]));
  const count = selected.size;
  const noun = count === 1 ? 'article' : 'articles';

  function confirm() {
    if (!action) return;
    // mutateAsync: mutate's callbacks are dropped if this bar unmounts first (the list refetched empty).
    bulk
      .mutateAsync({ action, ids: [...selected] })
      .then((answer) => {
        setResults({ action, results: answer.results });
        setAction(null);
        onDone();
        const approved = answer.results.filter((r) => r.ok).map((r) => r.id);
        if (action === 'approve' && approved.length > 0) offerUndo(approved);
      })
      .catch(() => {}); // the query client's handler has said why
  }

  function offerUndo(ids: string[]) {
    const what = `${ids.length} ${ids.length === 1 ? 'article' : 'articles'}`;
    toast({
      kind: 'success',
      title: `Approved ${what}`,
      duration: 10_000,
      action: {
        label: 'Undo',
        altText: `Undo: move the ${what} back to pending`,
        // Said in a toast, not the results card: the list (and this bar) may be gone by then.
        onAction: () =>
          void bulk
            .mutateAsync({ action: 'back-to-pending', ids })
            .then((answer) => {
              const back = answer.results.filter((r) => r.ok).length;
              toast({
                kind: back === ids.length ? 'info' : 'error',
                title: `Back to pending: ${back} of ${ids.length}`,
              });
            })
            .catch(() => {}), // the query client's handler has said why
      },
    });
  }

  const failed = results?.results.filter((r) => !r.ok) ?? [];
  return (
    <div className="stack">
      <fieldset className="row field-reset" aria-label="Bulk actions">
        <span className="muted">
          {count} {noun} selected
        </span>
        {(Object.keys(verbs) as ListAction[]).map((name) => (
          <Button
            key={name}
            size="small"
            variant={name === 'delete' ? 'danger' : 'default'}
            data-operation="bulkUpdateArticles"
            disabled={count === 0}
            onClick={() => setAction(name)}
          >
            {verbs[name]} selected
          </Button>
        ))}
      </fieldset>
      {results && (
        <div className="card" role="status">
          <p>
            {verbs[results.action as ListAction] ?? 'Back to pending'}:{' '}
            {results.results.length - failed.length} of {results.results.length} done.
          </p>
          {failed.length > 0 && (
            <ul>
              {failed.map((r) => (
                <li key={r.id}>
                  {titles.get(r.id) ?? r.id}: {r.error?.message ?? 'not done'}
                </li>
              ))}
            </ul>
          )}
          <Button size="small" onClick={() => setResults(null)}>
            Dismiss
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={action !== null}
        onOpenChange={(open) => !open && setAction(null)}
        title={`${action ? verbs[action] : ''} ${count} ${noun}?`}
        confirmLabel={`${action ? verbs[action] : ''} ${count} ${noun}`}
        busy={bulk.isPending}
        onConfirm={confirm}
      >
        <p>
          {action === 'delete'
            ? 'They are removed for good, from every site. Imported ones come back at the next import if still in their feed.'
            : action === 'approve'
              ? 'Pending ones among them are published on their host sites. Others are reported as not done.'
              : action === 'publish'
                ? 'Drafts among them go live on their host sites. Others are reported as not done.'
                : 'Published ones among them leave their host sites and become drafts.'}
        </p>
      </ConfirmDialog>
    </div>
  );
}
