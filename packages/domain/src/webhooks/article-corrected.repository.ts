import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { WebhookEvent } from './webhook-event';
import { insertWebhookEvents } from './webhook-relay.repository';

/**
 * Stores an `article.corrected` event and one delivery per enabled endpoint subscribed to it that sees the
 * article: network endpoints, and endpoints scoped to one of its host sites. Written in the correction's
 * transaction (the worker's sweep enqueues the deliveries), so the event cannot be lost.
 */
export async function insertArticleCorrectedDeliveries(
  db: DbOrTx,
  event: WebhookEvent,
  articleId: string,
): Promise<number> {
  await insertWebhookEvents(db, [event]);
  const result = await sql`
    insert into webhook_deliveries (endpoint_id, event_id, next_attempt_at)
    select e.id, ${event.id}, now() from webhook_endpoints e
     where e.enabled and ${event.type} = any(e.events)
       and (e.site_id is null or exists (
             select 1 from article_sites s where s.article_id = ${articleId}::uuid and s.site_id = e.site_id))
    on conflict (endpoint_id, event_id) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
