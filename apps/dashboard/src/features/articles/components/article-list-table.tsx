import { Link } from '@tanstack/react-router';
import type { ArticleSummary } from '../../../api/articles';
import { ArticleStatusBadge } from '../../../components/status-badge';
import { formatDateTime } from '../../../lib/format';
import { EmbargoBadge } from './embargo-badge';

/** A page of articles, newest first, each with a checkbox for the bulk actions (when `onSelect` is given). */
export function ArticleListTable({
  articles,
  selected,
  onSelect,
}: {
  articles: ArticleSummary[];
  selected: ReadonlySet<string>;
  onSelect?: ((ids: ReadonlySet<string>) => void) | undefined;
}) {
  const allSelected = articles.length > 0 && articles.every((a) => selected.has(a.id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelect?.(next);
  };
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">Articles, newest first</caption>
        <thead>
          <tr>
            {onSelect && (
              <th scope="col">
                <input
                  type="checkbox"
                  data-operation="bulkUpdateArticles"
                  aria-label="Select all articles on this page"
                  checked={allSelected}
                  onChange={(e) => onSelect(new Set(e.target.checked ? articles.map((a) => a.id) : []))}
                />
              </th>
            )}
            <th scope="col">Title</th>
            <th scope="col">Status</th>
            <th scope="col">Origin</th>
            <th scope="col">Sites</th>
            <th scope="col">Tags</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {articles.map((article) => (
            <tr key={article.id}>
              {onSelect && (
                <td>
                  <input
                    type="checkbox"
                    data-operation="bulkUpdateArticles"
                    aria-label={`Select “${article.title}”`}
                    checked={selected.has(article.id)}
                    onChange={(e) => toggle(article.id, e.target.checked)}
                  />
                </td>
              )}
              <td className="break-anywhere article-title-cell">
                <Link to="/articles/$id" params={{ id: article.id }}>
                  {article.title}
                </Link>
              </td>
              <td>
                <ArticleStatusBadge status={article.status} />
                {article.embargoUntil && <EmbargoBadge until={article.embargoUntil} />}
              </td>
              <td>{article.isAggregated ? (article.source ?? 'Imported') : 'Written here'}</td>
              <td>{article.hostSites.join(', ') || '—'}</td>
              <td className="break-anywhere">{article.tags.join(', ') || '—'}</td>
              <td>{formatDateTime(article.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
