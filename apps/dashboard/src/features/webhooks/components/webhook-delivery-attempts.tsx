import { useQuery } from '@tanstack/react-query';
import { webhookDeliveryAttemptsQuery } from '../../../api/webhooks';
import { ErrorState, LoadingState } from '../../../components/states';
import { formatDateTime, formatRelative } from '../../../lib/format';

/** Every attempt of one delivery, oldest first: when, the answer, how long, why it failed, what came back. */
export function WebhookDeliveryAttempts({
  endpointId,
  deliveryId,
  eventId,
  id,
}: {
  endpointId: string;
  deliveryId: string;
  eventId: string;
  id: string;
}) {
  const attempts = useQuery(webhookDeliveryAttemptsQuery(endpointId, deliveryId));
  return (
    <div id={id} className="webhook-attempts">
      {attempts.isPending ? (
        <LoadingState label="Loading attempts…" />
      ) : attempts.isError ? (
        <ErrorState error={attempts.error} onRetry={() => attempts.refetch()} />
      ) : attempts.data.data.length === 0 ? (
        <p className="muted">Not sent yet.</p>
      ) : (
        <table className="table webhook-attempts-table">
          <caption className="visually-hidden">Attempts of {eventId}, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Sent</th>
              <th scope="col">Answer</th>
              <th scope="col">Response</th>
              <th scope="col">Next attempt</th>
            </tr>
          </thead>
          <tbody>
            {attempts.data.data.map((attempt) => (
              <tr key={attempt.attempt}>
                <td data-label="#">{attempt.attempt}</td>
                <td data-label="Sent">
                  <span title={formatDateTime(attempt.attemptedAt)}>
                    {formatRelative(attempt.attemptedAt)}
                  </span>
                </td>
                <td data-label="Answer">
                  {`${attempt.statusCode ?? 'No answer'} · ${attempt.durationMs} ms`}
                  {attempt.error && (
                    <>
                      <br />
                      <span className="field-error">{attempt.error}</span>
                    </>
                  )}
                </td>
                <td data-label="Response">
                  {attempt.responseExcerpt ? (
                    <pre className="webhook-attempt-excerpt">{attempt.responseExcerpt}</pre>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td data-label="Next attempt">
                  {attempt.nextAttemptAt ? (
                    <span title={formatDateTime(attempt.nextAttemptAt)}>
                      {formatRelative(attempt.nextAttemptAt)}
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
