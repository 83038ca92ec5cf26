import { Link } from '@tanstack/react-router';
import type { Publisher } from '../../../lib/api-types';
import { explainLastError } from '../../../lib/feed-errors';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { PublisherActions } from './publisher-actions';
import { PublisherStateBadge } from './publisher-state';

type Row = Publisher & { articleCounts?: { total: number; published: number; pending: number } };

function LastFetch({ publisher }: { publisher: Publisher }) {
  if (!publisher.lastFetchedAt && !publisher.lastError) return <span className="muted">never</span>;
  return (
    <>
      {publisher.lastFetchedAt && (
        <span title={formatDateTime(publisher.lastFetchedAt)}>{formatRelative(publisher.lastFetchedAt)}</span>
      )}
      <br />
      {publisher.consecutiveFailures > 0 && publisher.lastError ? (
        <span className="field-error">{explainLastError(publisher.lastError).summary}</span>
      ) : (
        publisher.lastFetchedAt && <span className="muted">OK</span>
      )}
    </>
  );
}

export function PublishersTable({
  publishers,
  onDelete,
}: {
  publishers: Row[];
  onDelete(publisher: Publisher): void;
}) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">Publishers</caption>
        <thead>
          <tr>
            <th scope="col">Publisher</th>
            <th scope="col">State</th>
            <th scope="col">Auto-approve</th>
            <th scope="col">Feed</th>
            <th scope="col">Last fetch</th>
            <th scope="col" className="num">
              Failures
            </th>
            <th scope="col" className="num">
              Articles
            </th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {publishers.map((publisher) => (
            <tr key={publisher.id}>
              <td>
                <Link to="/publishers/$id" params={{ id: publisher.id }}>
                  {publisher.name}
                </Link>
                <br />
                <span className="muted break-anywhere">{publisher.email ?? ''}</span>
              </td>
              <td>
                <PublisherStateBadge publisher={publisher} />
              </td>
              <td>{publisher.autoApprove ? 'On' : 'Off'}</td>
              <td className="break-anywhere" style={{ maxWidth: 260 }}>
                {publisher.feedUrl ?? <span className="muted">not set</span>}
              </td>
              <td>
                <LastFetch publisher={publisher} />
              </td>
              <td className="num">{publisher.consecutiveFailures}</td>
              <td className="num">
                {publisher.articleCounts ? (
                  <span
                    title={`${publisher.articleCounts.published} published, ${publisher.articleCounts.pending} pending`}
                  >
                    {publisher.articleCounts.total.toLocaleString()}
                  </span>
                ) : (
                  '—'
                )}
              </td>
              <td>
                <PublisherActions publisher={publisher} onDelete={() => onDelete(publisher)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
