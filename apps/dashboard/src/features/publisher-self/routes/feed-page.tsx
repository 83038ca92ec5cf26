import { useQuery } from '@tanstack/react-query';
import { ownPublisherQuery } from '../../../api/own-publisher';
import { PageHeader } from '../../../components/page-header';
import { ErrorState, LoadingState } from '../../../components/states';
import { AccountStateNotice } from '../components/account-state-notice';
import { FeedForm } from '../components/feed-form';

/** /publisher/feed: the publisher's own feed address and default tags, with a test before saving. */
export function FeedPage() {
  const me = useQuery(ownPublisherQuery);
  return (
    <>
      <PageHeader title="Your feed">
        <p className="muted">Test the address to see what would be imported, then save it.</p>
      </PageHeader>
      {me.isPending ? (
        <LoadingState />
      ) : me.isError ? (
        <ErrorState error={me.error} onRetry={() => me.refetch()} />
      ) : (
        <div className="stack" style={{ maxWidth: 800 }}>
          <AccountStateNotice publisher={me.data} />
          <FeedForm publisher={me.data} />
        </div>
      )}
    </>
  );
}
