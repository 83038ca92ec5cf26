import { Button } from './button';

export interface PaginationProps {
  page: number;
  pages: number;
  total: number;
  onPage(page: number): void;
  /** What the total counts, singular and plural, e.g. ['publisher', 'publishers']. */
  noun: readonly [string, string];
}

export function Pagination({ page, pages, total, onPage, noun }: PaginationProps) {
  return (
    <nav className="pagination" aria-label="Pages">
      <span className="muted">
        {total.toLocaleString()} {total === 1 ? noun[0] : noun[1]}
        {pages > 1 && ` · page ${page} of ${pages}`}
      </span>
      {pages > 1 && (
        <div className="row">
          <Button size="small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous page
          </Button>
          <Button size="small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            Next page
          </Button>
        </div>
      )}
    </nav>
  );
}
