import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { PublisherDetail } from '../../../api/publishers';
import { publishersQuery } from '../../../api/publishers';
import { PageHeader } from '../../../components/page-header';
import { Pagination } from '../../../components/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { DeletePublisherDialog } from '../components/delete-publisher-dialog';
import { PublisherFilters } from '../components/publisher-filters';
import { PublishersTable } from '../components/publishers-table';
import type { PublishersSearch } from './publishers-search';

/** /publishers: every publisher, filtered and paged by the server. */
export function PublishersPage({
  search,
  onSearchChange,
}: {
  search: PublishersSearch;
  onSearchChange(search: PublishersSearch): void;
}) {
  const list = useQuery(publishersQuery(search));
  const [deleting, setDeleting] = useState<PublisherDetail | null>(null);
  const filtered = Boolean(search.state || search.q);

  return (
    <>
      <PageHeader
        title="Publishers"
        actions={
          <Link to="/publishers/create" className="btn btn-primary">
            New publisher
          </Link>
        }
      />
      <div className="stack">
        <PublisherFilters search={search} onChange={onSearchChange} />
        {list.isPending ? (
          <LoadingState label="Loading publishers…" />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => list.refetch()} />
        ) : list.data.data.length === 0 ? (
          <EmptyState>
            {filtered ? 'No publisher matches these filters.' : 'No publishers yet. Create the first one.'}
          </EmptyState>
        ) : (
          <div aria-busy={list.isFetching || undefined}>
            <PublishersTable publishers={list.data.data} onDelete={setDeleting} />
            <Pagination
              page={list.data.meta.pagination.page}
              pages={list.data.meta.pagination.pages}
              total={list.data.meta.pagination.total}
              noun={['publisher', 'publishers']}
              onPage={(page) => onSearchChange({ ...search, page: page > 1 ? page : undefined })}
            />
          </div>
        )}
      </div>
      <DeletePublisherDialog publisher={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
