import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { publisherArticlesQuery, publisherQuery, useResumeFeed } from '../../../api/publishers';
import { ArticlesTable } from '../../../components/articles-table';
import { AuditLink } from '../../../components/audit-link';
import { Button } from '../../../components/button';
import { FeedHealth } from '../../../components/feed-health';
import { PageHeader } from '../../../components/page-header';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { formatDateTime } from '../../../lib/format';
import { DeletePublisherDialog } from '../components/delete-publisher-dialog';
import { ImportNow } from '../components/import-now';
import { ImportRulesForm } from '../components/import-rules-form';
import { PublisherActions } from '../components/publisher-actions';
import { PublisherSettingsForm } from '../components/publisher-settings-form';
import { PublisherStateBadge } from '../components/publisher-state';
import { ResetPasswordForm } from '../components/reset-password-form';
import { RulesPreview } from '../components/rules-preview';

/** /publishers/:id: one publisher's details, settings, feed health, import, articles and password. */
export function PublisherPage({ id }: { id: string }) {
  const navigate = useNavigate();
  const publisher = useQuery(publisherQuery(id));
  const articles = useQuery(publisherArticlesQuery(id));
  const [deleting, setDeleting] = useState(false);
  const resume = useResumeFeed(id);

  if (publisher.isPending) return <LoadingState label="Loading publisher…" />;
  if (publisher.isError) {
    return (
      <>
        <ErrorState error={publisher.error} onRetry={() => publisher.refetch()} />
        <p>
          <Link to="/publishers">Back to publishers</Link>
        </p>
      </>
    );
  }
  const p = publisher.data;
  const importBlocked = p.disabled
    ? 'A disabled publisher is not imported.'
    : !p.feedUrl
      ? 'The publisher has not set a feed address yet.'
      : p.feedHealth.paused
        ? 'The feed is paused: resume it first.'
        : null;

  return (
    <>
      <PageHeader
        title={p.name}
        actions={<PublisherActions publisher={p} size="normal" onDelete={() => setDeleting(true)} />}
      >
        <p className="row">
          <PublisherStateBadge state={p.state} />
          <span className="muted">{p.email}</span>
          <AuditLink filter={{ objectType: 'publisher', objectId: p.id }} />
        </p>
      </PageHeader>
      <div className="grid-2">
        <section className="card" aria-labelledby="feed-title">
          <h2 id="feed-title">Feed health</h2>
          <FeedHealth
            feedUrl={p.feedUrl}
            health={p.feedHealth}
            resume={
              <Button variant="primary" busy={resume.isPending} onClick={() => resume.mutate()}>
                Resume the feed
              </Button>
            }
          />
        </section>
        <section className="card" aria-labelledby="import-title">
          <h2 id="import-title">Import</h2>
          <p className="muted">Fetch the feed now instead of waiting for the hourly import.</p>
          <ImportNow publisherId={p.id} disabledReason={importBlocked} />
        </section>
        <section className="card" aria-labelledby="settings-title">
          <h2 id="settings-title">Settings</h2>
          <PublisherSettingsForm key={p.updatedAt} publisher={p} />
        </section>
        <section className="card" aria-labelledby="details-title">
          <h2 id="details-title">Details</h2>
          <dl className="dl">
            <dt>Articles</dt>
            <dd>
              {p.articleCounts.total} in all: {p.articleCounts.published} published, {p.articleCounts.pending}{' '}
              pending, {p.articleCounts.rejected} rejected
            </dd>
            <dt>Created</dt>
            <dd>{formatDateTime(p.createdAt)}</dd>
            {p.disabledAt && (
              <>
                <dt>Disabled</dt>
                <dd>{formatDateTime(p.disabledAt)}</dd>
              </>
            )}
          </dl>
          <h3 style={{ marginTop: 'var(--space-5)' }}>Reset password</h3>
          <ResetPasswordForm publisherId={p.id} />
        </section>
        <section className="card grid-span-2" aria-labelledby="rules-title">
          <h2 id="rules-title">Import rules</h2>
          <p className="muted">What the import takes from this feed, and how it files it.</p>
          <ImportRulesForm key={p.updatedAt} publisher={p} />
          <h3 style={{ marginTop: 'var(--space-5)' }}>Preview</h3>
          <RulesPreview publisherId={p.id} hasFeed={p.feedUrl !== null} />
        </section>
      </div>
      <section aria-labelledby="articles-title" style={{ marginTop: 'var(--space-5)' }}>
        <h2 id="articles-title">Recent articles</h2>
        {articles.isPending ? (
          <LoadingState label="Loading articles…" />
        ) : articles.isError ? (
          <ErrorState error={articles.error} onRetry={() => articles.refetch()} />
        ) : articles.data.data.length === 0 ? (
          <EmptyState>No articles imported yet.</EmptyState>
        ) : (
          <ArticlesTable articles={articles.data.data} caption={`Recent articles of ${p.name}`} />
        )}
      </section>
      <DeletePublisherDialog
        publisher={deleting ? p : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate({ to: '/publishers' })}
      />
    </>
  );
}
