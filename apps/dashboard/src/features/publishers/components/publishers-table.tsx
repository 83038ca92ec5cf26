import { Link } from '@tanstack/react-router';
import type { PublisherDetail } from '../../../api/publishers';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { PublisherActions } from './publisher-actions';
import { PublisherStateBadge } from './publisher-state';

/** The last fetch's time and result, in words. */
function LastFetch({ publisher }: { publisher: PublisherDetail }) {
  const health = publisher.feedHealth;
  if (health.lastResult === 'never') return <span className="muted">never</span>;
  return (
    <>
      {health.lastResultAt && (
        <span title={formatDateTime(health.lastResultAt)}>{formatRelative(health.lastResultAt)}</span>
      )}
      <br />
      {health.lastResult === 'failed' ? (
        <span className="field-error">{health.lastError?.message ?? 'Failed'}</span>
      ) : (
        <span className="muted">OK</span>
      )}
    </>
  );
}

export function PublishersTable({
  publishers,
  onDelete,
}: {
  publishers: PublisherDetail[];
  onDelete(publisher: PublisherDetail): void;
}) {
  return (
    <div className="table-wrap">
      <table className="table table-wide">
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
                <PublisherStateBadge state={publisher.state} />
              </td>
              <td>{publisher.autoApprove ? 'On' : 'Off'}</td>
              <td className="break-anywhere" style={{ maxWidth: 240 }}>
                {publisher.feedUrl ?? <span className="muted">not set</span>}
              </td>
              <td>
                <LastFetch publisher={publisher} />
              </td>
              <td className="num">{publisher.consecutiveFailures}</td>
              <td className="num">
                <span
                  title={`${publisher.articleCounts.published} published, ${publisher.articleCounts.pending} pending`}
                >
                  {publisher.articleCounts.total.toLocaleString()}
                </span>
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
