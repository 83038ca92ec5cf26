import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Site } from '../../../api/sites';
import { siteListQuery } from '../../../api/sites';
import { PageHeader } from '../../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { CreateSiteForm } from '../components/create-site-form';
import { DeleteSiteDialog } from '../components/delete-site-dialog';
import { SiteCard } from '../components/site-card';
import './sites-page.css';

/** /sites: the child sites of the network and their client API keys. */
export function SitesPage() {
  const sites = useQuery(siteListQuery);
  const [deleting, setDeleting] = useState<Site | null>(null);

  return (
    <>
      <PageHeader title="Sites">
        <p className="muted">
          The child sites articles are published to, and the keys they read the client API with.
        </p>
      </PageHeader>
      <div className="stack">
        <CreateSiteForm />
        {sites.isPending ? (
          <LoadingState label="Loading sites…" />
        ) : sites.isError ? (
          <ErrorState error={sites.error} onRetry={() => sites.refetch()} />
        ) : sites.data.data.length === 0 ? (
          <EmptyState>No sites yet. Create the first one above.</EmptyState>
        ) : (
          <ul className="card-list" aria-label="Sites">
            {sites.data.data.map((site) => (
              <SiteCard key={site.id} site={site} onDelete={() => setDeleting(site)} />
            ))}
          </ul>
        )}
      </div>
      <DeleteSiteDialog site={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
