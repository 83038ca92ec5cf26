import { useQuery } from '@tanstack/react-query';
import { Fragment, useId, useState } from 'react';
import type { WebhookDelivery, WebhookEndpoint } from '../../../api/webhooks';
import { useResendDelivery, webhookDeliveriesQuery } from '../../../api/webhooks';
import { Button } from '../../../components/button';
import { Pagination } from '../../../components/pagination';
import { ErrorState, LoadingState } from '../../../components/states';
import { Badge, type BadgeTone } from '../../../components/status-badge';
import { TableHead } from '../../../components/table-head';
import { useToast } from '../../../components/toaster';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { WebhookDeliveryAttempts } from './webhook-delivery-attempts';

const statusTones: Record<WebhookDelivery['status'], BadgeTone> = {
  delivered: 'success',
  pending: 'warning',
  failed: 'danger',
};

/** An endpoint's delivery log, newest first, a page at a time, with "Send again" per delivery. */
export function WebhookDeliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const headingId = useId();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (deliveryId: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(deliveryId)) next.add(deliveryId);
      return next;
    });
  const deliveries = useQuery(webhookDeliveriesQuery(endpoint.id, page));
  const resend = useResendDelivery(endpoint.id);
  const toast = useToast();

  return (
    <section className="stack webhook-deliveries" aria-labelledby={headingId}>
      <h3 id={headingId}>Deliveries to {endpoint.url}</h3>
      {!endpoint.enabled && (
        <p className="muted">The endpoint is disabled: enable it before sending a delivery again.</p>
      )}
      {deliveries.isPending ? (
        <LoadingState label="Loading deliveries…" />
      ) : deliveries.isError ? (
        <ErrorState error={deliveries.error} onRetry={() => deliveries.refetch()} />
      ) : deliveries.data.data.length === 0 ? (
        <p className="muted">No deliveries yet: events are sent as articles change.</p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table webhook-deliveries-table">
              <caption className="visually-hidden">Deliveries to {endpoint.url}, newest first</caption>
              <TableHead columns={['Event', 'Status', 'Attempts', 'Answer', 'Next retry', 'Created']} />
              <tbody>
                {deliveries.data.data.map((delivery) => (
                  <Fragment key={delivery.id}>
                    <tr>
                      <td data-label="Event">
                        <code>{delivery.type}</code>
                        <br />
                        <code className="muted webhook-event-id">{delivery.eventId}</code>
                      </td>
                      <td data-label="Status">
                        <Badge tone={statusTones[delivery.status]}>{delivery.status}</Badge>
                      </td>
                      <td data-label="Attempts">{delivery.attempts}</td>
                      <td data-label="Answer">
                        {delivery.attempts === 0
                          ? 'Not sent yet'
                          : `${delivery.statusCode ?? 'No answer'}${delivery.durationMs !== null ? ` · ${delivery.durationMs} ms` : ''}`}
                        {delivery.error && (
                          <>
                            <br />
                            <span className="field-error">{delivery.error}</span>
                          </>
                        )}
                      </td>
                      <td data-label="Next retry">
                        {delivery.nextAttemptAt ? formatRelative(delivery.nextAttemptAt) : '—'}
                      </td>
                      <td data-label="Created">
                        <span title={formatDateTime(delivery.createdAt)}>
                          {formatRelative(delivery.createdAt)}
                        </span>
                      </td>
                      <td className="webhook-delivery-actions">
                        <Button
                          size="small"
                          aria-expanded={open.has(delivery.id)}
                          aria-controls={`${headingId}-${delivery.id}`}
                          aria-label={`Attempts of ${delivery.type} ${delivery.eventId}`}
                          onClick={() => toggle(delivery.id)}
                        >
                          Attempts
                        </Button>
                        <Button
                          size="small"
                          disabled={!endpoint.enabled}
                          busy={resend.isPending && resend.variables === delivery.id}
                          aria-label={`Send again ${delivery.type} ${delivery.eventId}`}
                          onClick={() =>
                            resend.mutate(delivery.id, {
                              onSuccess: () =>
                                toast({ kind: 'success', title: 'Queued: it is sent again within seconds' }),
                            })
                          }
                        >
                          Send again
                        </Button>
                      </td>
                    </tr>
                    {open.has(delivery.id) && (
                      <tr className="webhook-attempts-row">
                        <td colSpan={7}>
                          <WebhookDeliveryAttempts
                            id={`${headingId}-${delivery.id}`}
                            endpointId={endpoint.id}
                            deliveryId={delivery.id}
                            eventId={delivery.eventId}
                          />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            page={deliveries.data.meta.pagination.page}
            pages={deliveries.data.meta.pagination.pages}
            total={deliveries.data.meta.pagination.total}
            onPage={setPage}
            noun={['delivery', 'deliveries']}
          />
        </>
      )}
    </section>
  );
}
