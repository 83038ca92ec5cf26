import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { newestRevisionQuery } from '../../../api/article-revisions';
import { fetchArticle, type VersionedArticle } from '../../../api/articles';
import { Button } from '../../../components/button';
import { useReturnFocus } from '../../../components/use-return-focus';
import { type ArticleDraft, draftOf } from './article-draft';
import { type MergeChoice, mergeDrafts, mergeRows } from './conflict-merge';
import './history-panel.css';

/**
 * A save refused with 412: someone saved the article after it was loaded. Nothing of the draft is lost.
 * Their change (their version against the one this editor started from) is shown against mine, field by
 * field; per field the person keeps theirs or mine and saves the merge over their version. Reload and
 * Overwrite stay as the two quick answers.
 */
export function ConflictDialog({
  open,
  busy,
  articleId,
  base,
  mine,
  onReload,
  onOverwrite,
  onMerge,
  onCancel,
}: {
  open: boolean;
  busy: boolean;
  articleId: string | null;
  base: ArticleDraft;
  mine: ArticleDraft;
  onReload(): void;
  onOverwrite(): void;
  onMerge(merged: ArticleDraft, theirs: VersionedArticle): void;
  onCancel(): void;
}) {
  const returnFocus = useReturnFocus();
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog-content conflict-dialog" {...returnFocus}>
          <AlertDialog.Title asChild>
            <h2>Changed by someone else</h2>
          </AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="stack">
              <p>
                This article was saved by someone else after you opened it. Your changes are not saved yet.
              </p>
              <p>
                <strong>Reload</strong> shows their version and discards your changes.{' '}
                <strong>Overwrite</strong> saves the fields you changed over their version. Or choose, field
                by field, below.
              </p>
            </div>
          </AlertDialog.Description>
          {open && articleId && (
            <MergeFields articleId={articleId} base={base} mine={mine} busy={busy} onMerge={onMerge} />
          )}
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <Button>Keep editing</Button>
            </AlertDialog.Cancel>
            <Button disabled={busy} onClick={onReload}>
              Reload (discard mine)
            </Button>
            <Button variant="danger" busy={busy} onClick={onOverwrite}>
              Overwrite
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

function MergeFields({
  articleId,
  base,
  mine,
  busy,
  onMerge,
}: {
  articleId: string;
  base: ArticleDraft;
  mine: ArticleDraft;
  busy: boolean;
  onMerge(merged: ArticleDraft, theirs: VersionedArticle): void;
}) {
  const theirs = useQuery({
    queryKey: ['articles', 'conflict', articleId],
    queryFn: ({ signal }) => fetchArticle(articleId, signal),
    staleTime: 0,
    gcTime: 0,
  });
  const newest = useQuery({ ...newestRevisionQuery(articleId), gcTime: 0 });
  const [choices, setChoices] = useState<Partial<Record<keyof ArticleDraft, MergeChoice>>>({});
  if (theirs.isPending) return <p role="status">Loading their version…</p>;
  if (theirs.isError) return <p role="alert">Their version could not be loaded: Reload or Overwrite.</p>;
  const theirDraft = draftOf(theirs.data.article);
  const rows = mergeRows(base, mine, theirDraft);
  const who = newest.data ? `${newest.data.actor.label}, revision ${newest.data.n}` : 'them';
  return (
    <section className="stack" aria-label="Their change against mine">
      <h3>Their change ({who}) against mine</h3>
      {rows.length === 0 && <p className="muted">They changed nothing you changed: save keeps both.</p>}
      <table className="conflict-table">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Theirs</th>
            <th scope="col">Mine</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const choice = choices[row.field] ?? row.suggested;
            const pick = (value: MergeChoice) =>
              setChoices((current) => ({ ...current, [row.field]: value }));
            return (
              <tr key={row.field}>
                <th scope="row">{row.field}</th>
                <td>
                  <label>
                    <input
                      type="radio"
                      name={`merge-${row.field}`}
                      checked={choice === 'theirs'}
                      onChange={() => pick('theirs')}
                      aria-label={`Keep their ${row.field}`}
                    />{' '}
                    <span className="conflict-value">{row.theirs}</span>
                  </label>
                </td>
                <td>
                  <label>
                    <input
                      type="radio"
                      name={`merge-${row.field}`}
                      checked={choice === 'mine'}
                      onChange={() => pick('mine')}
                      aria-label={`Keep my ${row.field}`}
                    />{' '}
                    <span className="conflict-value">{row.mine}</span>
                  </label>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div>
        <Button
          variant="primary"
          busy={busy}
          onClick={() => onMerge(mergeDrafts(base, mine, theirDraft, choices), theirs.data)}
        >
          Save merged
        </Button>
      </div>
    </section>
  );
}
