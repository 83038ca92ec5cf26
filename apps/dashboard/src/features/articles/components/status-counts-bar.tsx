import type { StatusCounts } from '../../../api/articles';
import { type ArticlesSearch, articleStatuses } from '../routes/articles-search';

/** How many articles each status holds under the other filters; each count filters by its status. */
export function StatusCountsBar({
  counts,
  search,
  onChange,
}: {
  counts: StatusCounts;
  search: ArticlesSearch;
  onChange(search: ArticlesSearch): void;
}) {
  return (
    <nav className="row" aria-label="Articles by status">
      {articleStatuses.map((status) => (
        <button
          key={status}
          type="button"
          className="btn btn-small"
          aria-pressed={search.status === status}
          onClick={() =>
            onChange({ ...search, status: search.status === status ? undefined : status, page: undefined })
          }
        >
          {status} <strong>{counts[status].toLocaleString()}</strong>
        </button>
      ))}
    </nav>
  );
}
