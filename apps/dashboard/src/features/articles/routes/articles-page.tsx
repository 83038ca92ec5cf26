import '../components/articles.css';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { articlesQuery } from '../../../api/articles';
import { useCan } from '../../../api/permissions';
import { PageHeader } from '../../../components/page-header';
import { Pagination } from '../../../components/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { ArticleFilters } from '../components/article-filters';
import { ArticleListTable } from '../components/article-list-table';
import { BulkActions } from '../components/bulk-actions';
import { StatusCountsBar } from '../components/status-counts-bar';
import type { ArticlesSearch } from './articles-search';

/** /articles: every article, filtered and paged by the server, with bulk actions. */
export function ArticlesPage({
  search,
  onSearchChange,
}: {
  search: ArticlesSearch;
  onSearchChange(search: ArticlesSearch): void;
}) {
  const list = useQuery(articlesQuery(search));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // Bulk actions (administrators) and New article: only for whom the policy allows them.
  const canBulk = useCan('bulkUpdateArticles');
  const canCreate = useCan('createArticle');
  const filtered = Boolean(search.status || search.site || search.origin || search.tag || search.q);
  const change = (next: ArticlesSearch) => {
    setSelected(new Set());
    onSearchChange(next);
  };

  return (
    <>
      <PageHeader
        title="Articles"
        actions={
          canCreate && (
            <Link to="/articles/new" className="btn btn-primary" data-operation="createArticle">
              New article
            </Link>
          )
        }
      />
      <div className="stack">
        {list.data?.meta.counts && (
          <StatusCountsBar counts={list.data.meta.counts} search={search} onChange={change} />
        )}
        <ArticleFilters search={search} onChange={change} />
        {list.isPending ? (
          <LoadingState label="Loading articles…" />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => list.refetch()} />
        ) : list.data.data.length === 0 ? (
          <EmptyState>
            {filtered ? 'No article matches these filters.' : 'No articles yet. Write the first one.'}
          </EmptyState>
        ) : (
          <div className="stack" aria-busy={list.isFetching || undefined}>
            {canBulk && (
              <BulkActions
                selected={selected}
                articles={list.data.data}
                onDone={() => setSelected(new Set())}
              />
            )}
            <ArticleListTable
              articles={list.data.data}
              selected={selected}
              onSelect={canBulk ? setSelected : undefined}
            />
            <Pagination
              page={list.data.meta.pagination.page}
              pages={list.data.meta.pagination.pages}
              total={list.data.meta.pagination.total}
              noun={['article', 'articles']}
              onPage={(page) => change({ ...search, page: page > 1 ? page : undefined })}
            />
          </div>
        )}
      </div>
    </>
  );
}
