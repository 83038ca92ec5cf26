import { useQuery } from '@tanstack/react-query';
import type { Article } from '../../../api/articles';
import { articlePreviewQuery } from '../../../api/articles';
import type { ReviewAction } from '../../../api/review';
import { Button } from '../../../components/button';
import { ReasonField } from '../../../components/reason-field';
import { ErrorState, LoadingState } from '../../../components/states';
import { formatDateTime } from '../../../lib/format';

// The body is rendered in a sandboxed frame: no script runs, it cannot reach this page or its cookie,
// whatever HTML the feed carried. Links open in a new tab; nothing is sent as referrer.
function bodyDocument(article: Article): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="script-src 'none'; object-src 'none'">
<base target="_blank"><title>${escapeHtml(article.title)}</title>
<style>body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;line-height:1.6;color:#1b1f24;margin:0 4px;overflow-wrap:anywhere}
img,video,iframe{max-width:100%;height:auto}a{color:#0b5cad}</style></head><body>${article.body}</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The selected article in full, as a child site would show it, with approve and reject and a reason. */
export function ArticlePreview({
  id,
  reason,
  onReasonChange,
  onAction,
}: {
  id: string;
  reason: string;
  onReasonChange(reason: string): void;
  onAction(action: ReviewAction): void;
}) {
  const article = useQuery(articlePreviewQuery(id));
  if (article.isPending) return <LoadingState label="Loading the article…" />;
  if (article.isError) return <ErrorState error={article.error} onRetry={() => article.refetch()} />;
  const a = article.data;
  return (
    <article className="review-preview" aria-labelledby="review-preview-title">
      <div className="row-between review-preview-actions">
        <span className="muted">
          {a.source ?? 'Manual'} · {formatDateTime(a.createdAt)}
        </span>
        <div className="row">
          <Button variant="primary" onClick={() => onAction('approve')} aria-keyshortcuts="a">
            Approve
          </Button>
          <Button variant="danger" onClick={() => onAction('reject')} aria-keyshortcuts="r">
            Reject
          </Button>
        </div>
      </div>
      <ReasonField value={reason} onChange={onReasonChange} />
      <h2 id="review-preview-title">{a.title}</h2>
      {a.sourceUrl && (
        <p className="break-anywhere">
          Original:{' '}
          <a href={a.sourceUrl} target="_blank" rel="noreferrer noopener">
            {a.sourceUrl}
          </a>
        </p>
      )}
      {a.tags.length > 0 && (
        <ul className="review-tags" aria-label="Tags">
          {a.tags.map((tag) => (
            <li key={tag} className="badge">
              {tag}
            </li>
          ))}
        </ul>
      )}
      {a.thumbnail && (
        <img className="review-thumb" src={a.thumbnail} alt="" referrerPolicy="no-referrer" loading="lazy" />
      )}
      <iframe
        className="review-body"
        title={`Body of “${a.title}”`}
        sandbox="allow-popups allow-popups-to-escape-sandbox"
        referrerPolicy="no-referrer"
        srcDoc={bodyDocument(a)}
      />
    </article>
  );
}
