import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  type RevisionDiff,
  type RevisionSummary,
  revisionDiffQuery,
  revisionsQuery,
  useRestoreRevision,
} from '../../../api/article-revisions';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorState, LoadingState } from '../../../components/states';
import { useToast } from '../../../components/toaster';
import { errorMessage } from '../../../lib/api-error';
import './history-panel.css';

const sourceLabels: Record<RevisionSummary['source'], string> = {
  editor: 'saved in the editor',
  autosave: 'autosaved',
  api: 'through the API',
  import: 'imported from the feed',
  review: 'review decision',
  bulk: 'bulk action',
  schedule: 'scheduled action',
  restore: 'restored',
};

/** A run of the body as a reader sees it: block ends as line breaks, other tags left out, entities read. */
function visibleText(html: string): string {
  return html
    .replace(/<\/(p|h[1-6]|li|blockquote|div|figure)>|<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

const when = (value: string) =>
  new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The article's History: its revisions with who, when and from where; two of them compared side by side
 * (field by field, the body word by word); a restore after a confirmation. A restore never changes the
 * status, and it is refused while the editor holds unsaved changes (they would be replaced).
 */
export function HistoryPanel({
  articleId,
  version,
  dirty,
  onRestored,
}: {
  articleId: string;
  /** The article's version (ETag): each new one is a new revision to list. */
  version: string | null;
  dirty: boolean;
  onRestored(): void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details className="card history-panel" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>History</summary>
      {open && <HistoryBody articleId={articleId} version={version} dirty={dirty} onRestored={onRestored} />}
    </details>
  );
}

function HistoryBody({
  articleId,
  version,
  dirty,
  onRestored,
}: {
  articleId: string;
  version: string | null;
  dirty: boolean;
  onRestored(): void;
}) {
  const toast = useToast();
  const revisions = useInfiniteQuery(revisionsQuery(articleId));
  const { refetch } = revisions;
  const list = useRef<HTMLOListElement>(null);
  // After "Show older", keyboard users go on where the older revisions start: the first one's checkbox.
  const [focusBelow, setFocusBelow] = useState<number | null>(null);
  const { data } = revisions;
  useEffect(() => {
    if (focusBelow === null || !data) return;
    const first = data.pages.flatMap((page) => page.data).find((revision) => revision.n < focusBelow);
    if (!first) return;
    list.current?.querySelector<HTMLInputElement>(`[data-n="${first.n}"]`)?.focus();
    setFocusBelow(null);
  }, [data, focusBelow]);
  // A save made a new version, hence a new revision.
  useEffect(() => {
    if (version) void refetch();
  }, [version, refetch]);
  const [picked, setPicked] = useState<number[]>([]);
  const [restoring, setRestoring] = useState<number | null>(null);
  const restore = useRestoreRevision(articleId);

  if (revisions.isPending) return <LoadingState label="Loading history…" />;
  if (revisions.isError) return <ErrorState error={revisions.error} onRetry={() => revisions.refetch()} />;
  const items = revisions.data.pages.flatMap((page) => page.data);
  const total = revisions.data.pages[0]?.meta.pagination.total ?? items.length;
  const newest = items[0]?.n;
  const showOlder = () => {
    setFocusBelow(items.at(-1)?.n ?? null);
    void revisions.fetchNextPage();
  };
  // The two picked, older first; by default the newest against the one before it.
  const pair =
    picked.length === 2
      ? ([Math.min(...picked), Math.max(...picked)] as const)
      : items.length >= 2
        ? ([items[1]?.n as number, items[0]?.n as number] as const)
        : null;

  const toggle = (n: number) =>
    setPicked((current) =>
      current.includes(n) ? current.filter((m) => m !== n) : [...current.slice(-1), n],
    );

  return (
    <div className="stack history-body">
      <p className="muted">
        Every save, autosave, status change and import is kept. Tick two revisions to compare them.
      </p>
      <ol className="history-list" aria-label="Revisions" ref={list}>
        {items.map((revision) => (
          <li key={revision.n} className="history-item">
            <label className="history-pick">
              <input
                type="checkbox"
                data-n={revision.n}
                checked={picked.includes(revision.n)}
                onChange={() => toggle(revision.n)}
                aria-label={`Compare revision ${revision.n}`}
              />
              <span className="history-n">#{revision.n}</span>
            </label>
            <span className="history-who">
              <strong>{revision.actor.label}</strong>{' '}
              {revision.n === 1 && revision.source !== 'import'
                ? 'created it'
                : sourceLabels[revision.source]}
              <span className="muted">
                {' '}
                · {when(revision.createdAt)} · {revision.status}
              </span>
              {revision.reason && <span className="history-reason">“{revision.reason}”</span>}
            </span>
            {revision.n !== newest && (
              <Button
                size="small"
                disabled={dirty}
                title={dirty ? 'Save or discard your changes first' : undefined}
                onClick={() => setRestoring(revision.n)}
                aria-label={`Restore revision ${revision.n}`}
              >
                Restore
              </Button>
            )}
          </li>
        ))}
      </ol>
      {total > items.length && (
        <div className="row history-more">
          <span className="muted">
            Showing the newest {items.length} of {total}.
          </span>
          {revisions.hasNextPage && (
            <Button size="small" onClick={showOlder} disabled={revisions.isFetchingNextPage}>
              {revisions.isFetchingNextPage ? 'Loading…' : 'Show older'}
            </Button>
          )}
        </div>
      )}
      {pair && <RevisionCompare articleId={articleId} from={pair[0]} to={pair[1]} />}
      <ConfirmDialog
        open={restoring !== null}
        onOpenChange={(next) => !next && setRestoring(null)}
        title={`Restore revision ${restoring}?`}
        confirmLabel="Restore"
        busy={restore.isPending}
        onConfirm={() => {
          if (restoring === null) return;
          restore.mutate(
            { n: restoring },
            {
              onSuccess: (restored) => {
                setRestoring(null);
                setPicked([]);
                toast({ kind: 'success', title: restored.message });
                onRestored();
              },
              onError: (error) => toast({ kind: 'error', title: errorMessage(error) }),
            },
          );
        }}
      >
        <p>
          Its title, text, tags, images and host sites become the article's content again, as a new revision:
          nothing is lost, the current version stays in the history. The status does not change: a published
          article stays published and readers see the restored text at once.
        </p>
      </ConfirmDialog>
    </div>
  );
}

/** Two revisions side by side: the fields that differ, then the body word by word. */
function RevisionCompare({ articleId, from, to }: { articleId: string; from: number; to: number }) {
  const diff = useQuery(revisionDiffQuery(articleId, from, to));
  if (diff.isPending) return <LoadingState label="Comparing…" />;
  if (diff.isError) return <ErrorState error={diff.error} onRetry={() => diff.refetch()} />;
  return <DiffView diff={diff.data} />;
}

const shown = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? '—'
    : Array.isArray(value)
      ? value.join(', ') || '—'
      : String(value);

/** One side of the body diff: the shared runs and this side's own (`del` on the old side, `ins` on the new). */
function bodySide(parts: RevisionDiff['body'], own: 'delete' | 'insert') {
  let offset = 0;
  return parts
    .filter((part) => part.op === 'equal' || part.op === own)
    .map((part) => {
      const key = `${part.op}-${offset}`;
      offset += part.text.length;
      const text = visibleText(part.text);
      if (part.op === 'equal') return <span key={key}>{text}</span>;
      return own === 'delete' ? <del key={key}>{text}</del> : <ins key={key}>{text}</ins>;
    });
}

export function DiffView({ diff }: { diff: RevisionDiff }) {
  const fields = diff.fields.filter((change) => change.field !== 'body');
  const bodyChanged = diff.fields.some((change) => change.field === 'body');
  return (
    <section
      className="history-diff"
      aria-label={`Revision ${diff.from.n} compared with revision ${diff.to.n}`}
    >
      <div className="history-diff-head">
        <h3>#{diff.from.n}</h3>
        <h3>#{diff.to.n}</h3>
      </div>
      {fields.length === 0 && !bodyChanged && (
        <p className="muted">The two revisions have the same content.</p>
      )}
      {fields.map((change) => (
        <div key={change.field} className="history-diff-row">
          <div className="history-diff-field">{change.field}</div>
          <div className="history-diff-cells">
            <del>{shown(change.from)}</del>
            <ins>{shown(change.to)}</ins>
          </div>
        </div>
      ))}
      {bodyChanged && (
        <div className="history-diff-row">
          <div className="history-diff-field">body</div>
          <div className="history-diff-cells history-diff-body">
            <div>{bodySide(diff.body, 'delete')}</div>
            <div>{bodySide(diff.body, 'insert')}</div>
          </div>
        </div>
      )}
    </section>
  );
}
