// The delivery log as administrators read it, resends, and retention.
import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { Page, PageRequest } from '../shared/page';
import { offsetOf } from '../shared/page';
import type { WebhookDelivery, WebhookDeliveryAttempt } from './webhook-delivery';

const deliveryColumns = [
  'd.id',
  'd.endpoint_id',
  'd.event_id',
  'ev.type',
  'd.status',
  'd.attempts',
  'd.last_status_code',
  'd.last_duration_ms',
  'd.last_error',
  'd.next_attempt_at',
  'd.last_attempt_at',
  'd.delivered_at',
  'd.created_at',
] as const;

type DeliveryRow = {
  id: string;
  endpoint_id: string;
  event_id: string;
  type: string;
  status: WebhookDelivery['status'];
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
};

function toWebhookDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    type: row.type as WebhookDelivery['type'],
    status: row.status,
    attempts: row.attempts,
    statusCode: row.last_status_code,
    durationMs: row.last_duration_ms,
    error: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
  };
}

/** One page of an endpoint's deliveries, newest first. */
export async function findWebhookDeliveriesPage(
  db: DbOrTx,
  endpointId: string,
  page: PageRequest,
): Promise<Page<WebhookDelivery>> {
  const base = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .where('d.endpoint_id', '=', endpointId);
  const [rows, count] = await Promise.all([
    base
      .select(deliveryColumns)
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .offset(offsetOf(page))
      .limit(page.limit)
      .execute(),
    db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toWebhookDelivery), total: Number(count.total) };
}

export async function findWebhookDelivery(
  db: DbOrTx,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .select(deliveryColumns)
    .where('d.endpoint_id', '=', endpointId)
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
  return row && toWebhookDelivery(row);
}

/**
 * The attempts of an endpoint's delivery, oldest first (at most the last `limit`); undefined when the endpoint
 * has no such delivery.
 */
export async function findWebhookDeliveryAttempts(
  db: DbOrTx,
  endpointId: string,
  deliveryId: string,
  limit: number,
): Promise<WebhookDeliveryAttempt[] | undefined> {
  const delivery = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('id', '=', deliveryId)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst();
  if (!delivery) return undefined;
  const rows = await db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((row) => ({
    attempt: row.attempt,
    attemptedAt: row.attempted_at,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    error: row.error,
    responseExcerpt: row.response_excerpt,
    nextAttemptAt: row.next_attempt_at,
  }));
}

/**
 * Makes the delivery pending and due now with exactly one more attempt allowed (a resend is not retried on
 * its own). An attempt in flight is left to finish. False when the endpoint has no such delivery.
 */
export async function markWebhookDeliveryForResend(
  db: DbOrTx,
  endpointId: string,
  deliveryId: string,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: 'pending',
      next_attempt_at: sql<Date>`now()`,
      attempt_limit: eb('attempts', '+', 1),
    }))
    .where('id', '=', deliveryId)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes events created before `olderThan` with their deliveries, `batchSize` events at a time; returns how many. */
export async function deleteWebhookEventsBefore(
  db: DbOrTx,
  olderThan: Date,
  batchSize: number,
): Promise<number> {
  const result = await sql`
    delete from webhook_events where id in (
      select id from webhook_events where created_at < ${olderThan} limit ${batchSize})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
