import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { auditEventsQuery } from '../../../api/audit';
import { siteChoicesQuery } from '../../../api/sites';
import { Button } from '../../../components/button';
import { PageHeader } from '../../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { AuditFilters } from '../components/audit-filters';
import { AuditTable } from '../components/audit-table';
import type { AuditSearch } from './audit-search';
import './audit-page.css';

/** /audit: who did what, when, from where (docs/audit.md). Newest first; "Load more" reads older entries. */
export function AuditPage({
  search,
  onSearchChange,
}: {
  search: AuditSearch;
  onSearchChange(next: AuditSearch): void;
}) {
  const events = useInfiniteQuery(auditEventsQuery(search));
  const siteNames = new Map(
    (useQuery(siteChoicesQuery).data?.data ?? []).map((site) => [site.id, site.name]),
  );
  const rows = events.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <>
      <PageHeader title="Audit log">
        <p className="muted">
          Every administrative and security event, append-only and hash-chained. Secrets are never recorded.
        </p>
      </PageHeader>
      <div className="stack">
        <AuditFilters search={search} onChange={onSearchChange} />
        {events.isPending ? (
          <LoadingState label="Loading audit entries…" />
        ) : events.isError ? (
          <ErrorState error={events.error} onRetry={() => events.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState>No audit entries match these filters.</EmptyState>
        ) : (
          <>
            <AuditTable events={rows} siteNames={siteNames} />
            {events.hasNextPage && (
              <div className="row">
                <Button onClick={() => events.fetchNextPage()} disabled={events.isFetchingNextPage}>
                  {events.isFetchingNextPage ? 'Loading…' : 'Load more'}
                </Button>
              </div>
            )}
          </>
        )}
      </div>
    </>
  );
}
