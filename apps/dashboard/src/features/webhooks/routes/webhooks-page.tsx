import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { WebhookEndpoint } from '../../../api/webhooks';
import { webhookListQuery } from '../../../api/webhooks';
import { PageHeader } from '../../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { CreateWebhookForm } from '../components/create-webhook-form';
import { DeleteWebhookDialog } from '../components/delete-webhook-dialog';
import { WebhookCard } from '../components/webhook-card';
import './webhooks-page.css';

/** /webhooks: the endpoints signed events are POSTed to, and their delivery logs (docs/webhooks.md). */
export function WebhooksPage() {
  const endpoints = useQuery(webhookListQuery);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);

  return (
    <>
      <PageHeader title="Webhooks">
        <p className="muted">
          Endpoints that receive signed events when articles change or a publisher&apos;s feed keeps failing.
        </p>
      </PageHeader>
      <div className="stack">
        <CreateWebhookForm />
        {endpoints.isPending ? (
          <LoadingState label="Loading endpoints…" />
        ) : endpoints.isError ? (
          <ErrorState error={endpoints.error} onRetry={() => endpoints.refetch()} />
        ) : endpoints.data.data.length === 0 ? (
          <EmptyState>No endpoints yet. Register the first one above.</EmptyState>
        ) : (
          <ul className="card-list" aria-label="Endpoints">
            {endpoints.data.data.map((endpoint) => (
              <WebhookCard key={endpoint.id} endpoint={endpoint} onDelete={() => setDeleting(endpoint)} />
            ))}
          </ul>
        )}
      </div>
      <DeleteWebhookDialog endpoint={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
