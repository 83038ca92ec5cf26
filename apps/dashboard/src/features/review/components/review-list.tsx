import { useEffect, useRef } from 'react';
import type { ArticleSummary } from '../../../api/articles';
import { formatRelative } from '../../../lib/format';

/** The queue: one row per article, a checkbox for bulk actions and a button that opens the preview. */
export function ReviewList({
  articles,
  selectedId,
  checked,
  onSelect,
  onCheck,
}: {
  articles: ArticleSummary[];
  selectedId: string | null;
  checked: ReadonlySet<string>;
  onSelect(id: string): void;
  onCheck(id: string, on: boolean): void;
}) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!selectedId) return;
    // Ids are UUIDs: safe inside the attribute selector as they are.
    list.current?.querySelector(`[data-id="${selectedId}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [selectedId]);

  return (
    <ul className="review-list" ref={list} aria-label="Pending articles">
      {articles.map((article) => {
        const selected = article.id === selectedId;
        return (
          <li
            key={article.id}
            data-id={article.id}
            className={selected ? 'review-item is-selected' : 'review-item'}
          >
            <input
              type="checkbox"
              checked={checked.has(article.id)}
              onChange={(event) => onCheck(article.id, event.target.checked)}
              aria-label={`Select “${article.title}”`}
            />
            <button
              type="button"
              className="review-item-open"
              aria-current={selected ? 'true' : undefined}
              onClick={() => onSelect(article.id)}
            >
              <span className="review-item-title">{article.title}</span>
              <span className="muted review-item-meta">
                {article.source ?? 'Manual'} · {formatRelative(article.createdAt)}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
