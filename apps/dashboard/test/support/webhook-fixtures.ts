import { createWebhookEndpoint, type Db } from '@newsroom/domain';

/** An endpoint with one event whose delivery failed with a 500 (as the worker records it). */
export async function endpointWithFailedDelivery(db: Db, url: string) {
  const { endpoint } = await createWebhookEndpoint(db, {
    url,
    events: ['article.published'],
    site: null,
    enabled: true,
  });
  const eventId = `evt_test_${endpoint.id.slice(0, 8)}`;
  await db
    .insertInto('webhook_events')
    .values({ id: eventId, type: 'article.published', occurred_at: new Date(), body: '{}' })
    .execute();
  const delivery = await db
    .insertInto('webhook_deliveries')
    .values({
      endpoint_id: endpoint.id,
      event_id: eventId,
      status: 'failed',
      attempts: 8,
      last_attempt_at: new Date(),
      last_status_code: 500,
      last_error: 'the receiver answered 500',
      last_duration_ms: 42,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('webhook_delivery_attempts')
    .values([
      {
        delivery_id: delivery.id,
        attempt: 1,
        status_code: 503,
        duration_ms: 40,
        error: 'HTTP 503',
        response_excerpt: 'upstream busy',
        next_attempt_at: new Date(Date.now() + 30_000),
      },
      {
        delivery_id: delivery.id,
        attempt: 2,
        status_code: null,
        duration_ms: 5_000,
        error: 'no answer within 5000 ms',
        response_excerpt: null,
        next_attempt_at: null,
      },
    ])
    .execute();
  return { endpoint, eventId, deliveryId: delivery.id };
}
