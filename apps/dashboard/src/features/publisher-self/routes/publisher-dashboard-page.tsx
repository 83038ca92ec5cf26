import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { ArticleStatus } from '../../../api/articles';
import { ownArticlesQuery, ownPublisherQuery, useResumeOwnFeed } from '../../../api/own-publisher';
import type { ArticleCounts } from '../../../api/publishers';
import { ArticlesTable } from '../../../components/articles-table';
import { Button } from '../../../components/button';
import { FeedHealth } from '../../../components/feed-health';
import { PageHeader } from '../../../components/page-header';
import { Pagination } from '../../../components/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { AccountStateNotice } from '../components/account-state-notice';
import './publisher-dashboard-page.css';

const statuses: { status: ArticleStatus; label: string }[] = [
  { status: 'published', label: 'Published' },
  { status: 'pending', label: 'Awaiting review' },
  { status: 'rejected', label: 'Rejected' },
];

function StatusCounts({
  counts,
  selected,
  onSelect,
}: {
  counts: ArticleCounts;
  selected: ArticleStatus | undefined;
  onSelect(status: ArticleStatus | undefined): void;
}) {
  const tiles = [
    { status: undefined, label: 'All articles', count: counts.total },
    ...statuses.map((s) => ({ ...s, count: counts[s.status] })),
  ];
  return (
    <fieldset className="count-tiles">
      <legend className="visually-hidden">Articles by status</legend>
      {tiles.map((tile) => (
        <button
          key={tile.label}
          type="button"
          className="count-tile"
          aria-pressed={selected === tile.status}
          onClick={() => onSelect(tile.status)}
        >
          <span className="count-tile-number">{tile.count.toLocaleString()}</span>
          <span>{tile.label}</span>
        </button>
      ))}
    </fieldset>
  );
}

/** /publisher/dashboard: the publisher's own articles with their status, and its feed's health. */
export function PublisherDashboardPage() {
  const me = useQuery(ownPublisherQuery);
  const [status, setStatus] = useState<ArticleStatus | undefined>(undefined);
  const [page, setPage] = useState(1);
  const articles = useQuery(ownArticlesQuery(status, page));
  const resume = useResumeOwnFeed();

  return (
    <>
      <PageHeader
        title={me.data ? me.data.name : 'Your dashboard'}
        actions={
          <Link to="/publisher/feed" className="btn">
            Feed settings
          </Link>
        }
      />
      <div className="stack">
        {me.data && <AccountStateNotice publisher={me.data} />}
        <section className="card" aria-labelledby="health-title">
          <h2 id="health-title">Your feed</h2>
          {me.isPending ? (
            <LoadingState />
          ) : me.isError ? (
            <ErrorState error={me.error} onRetry={() => me.refetch()} />
          ) : (
            <FeedHealth
              feedUrl={me.data.feedUrl}
              health={me.data.feedHealth}
              resume={
                <Button variant="primary" busy={resume.isPending} onClick={() => resume.mutate()}>
                  Resume my feed
                </Button>
              }
            />
          )}
        </section>
        <section aria-labelledby="articles-title" className="stack">
          <h2 id="articles-title">Your articles</h2>
          {articles.data && (
            <StatusCounts
              counts={articles.data.meta.counts}
              selected={status}
              onSelect={(next) => {
                setStatus(next);
                setPage(1);
              }}
            />
          )}
          {articles.isPending ? (
            <LoadingState label="Loading articles…" />
          ) : articles.isError ? (
            <ErrorState error={articles.error} onRetry={() => articles.refetch()} />
          ) : articles.data.data.length === 0 ? (
            <EmptyState>
              {status
                ? 'No articles with this status.'
                : 'No articles yet: they appear here once your feed is imported.'}
            </EmptyState>
          ) : (
            <div>
              <ArticlesTable articles={articles.data.data} caption="Your articles" />
              <Pagination
                page={articles.data.meta.pagination.page}
                pages={articles.data.meta.pagination.pages}
                total={articles.data.meta.pagination.total}
                noun={['article', 'articles']}
                onPage={setPage}
              />
            </div>
          )}
        </section>
      </div>
    </>
  );
}
