// What the relay writes: its position in the change outbox, the events it derives and their deliveries.
import { sql } from 'kysely';
import type { ChangePosition } from '../changes/article-change';
import type { DbOrTx, Tx } from '../db/create-db';
import type { DueWebhookDelivery } from './webhook-delivery';
import type { WebhookEvent } from './webhook-event';

/** The relay's position, locked for this transaction; undefined while another replica holds it. */
export async function lockWebhookRelayPosition(tx: Tx): Promise<ChangePosition | undefined> {
  const { rows } = await sql<{ xid: string; article_id: string }>`
    select xid::text as xid, article_id from webhook_relay_position for update skip locked`.execute(tx);
  const row = rows[0];
  return row && { xid: row.xid, articleId: row.article_id };
}

export async function saveWebhookRelayPosition(tx: Tx, position: ChangePosition): Promise<void> {
  await sql`update webhook_relay_position set xid = ${position.xid}::xid8, article_id = ${position.articleId}::uuid`.execute(
    tx,
  );
}

/** Stores events (an event already stored keeps its first body). */
export async function insertWebhookEvents(db: DbOrTx, events: readonly WebhookEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('webhook_events')
    .values(events.map((e) => ({ id: e.id, type: e.type, occurred_at: e.occurredAt, body: e.body })))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** One pending delivery per (endpoint, event), due now; pairs already delivered to are skipped. */
export async function insertWebhookDeliveries(
  db: DbOrTx,
  pairs: readonly { endpointId: string; eventId: string }[],
): Promise<DueWebhookDelivery[]> {
  if (pairs.length === 0) return [];
  return db
    .insertInto('webhook_deliveries')
    .values(
      pairs.map((p) => ({
        endpoint_id: p.endpointId,
        event_id: p.eventId,
        next_attempt_at: sql<Date>`now()`,
      })),
    )
    .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
    .returning(['id', 'attempts'])
    .execute();
}

/**
 * One `publisher.feed_failed` event and a delivery of it to each enabled endpoint that subscribes to it:
 * unscoped endpoints, and those scoped to one of the publisher's default host sites.
 */
export async function insertFeedFailedDeliveries(
  db: DbOrTx,
  event: WebhookEvent,
  publisherId: string,
): Promise<number> {
  await insertWebhookEvents(db, [event]);
  const result = await sql`
    insert into webhook_deliveries (endpoint_id, event_id, next_attempt_at)
    select e.id, ${event.id}, now() from webhook_endpoints e
     where e.enabled and ${event.type} = any(e.events)
       and (e.site_id is null or exists (
             select 1 from publisher_default_sites d
              where d.publisher_id = ${publisherId}::uuid and d.site_id = e.site_id))
    on conflict (endpoint_id, event_id) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
