// Delivery attempts: claiming a due delivery, recording its outcome, the endpoint's run of failures.
import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { ClaimedWebhookDelivery, DueWebhookDelivery, WebhookAttemptResult } from './webhook-delivery';

/**
 * Claims attempt number `attempt` (0-based: the attempts made before it) of a pending delivery for
 * `lockMs`, with what sending it needs. Undefined when the delivery is gone, no longer pending, already
 * past that attempt, or held by another worker: a duplicate or stale job then does nothing.
 */
export async function claimWebhookDelivery(
  db: DbOrTx,
  deliveryId: string,
  attempt: number,
  lockMs: number,
): Promise<ClaimedWebhookDelivery | undefined> {
  const { rows } = await sql<{
    id: string;
    attempts: number;
    attempt_limit: number | null;
    event_id: string;
    body: string;
    endpoint_id: string;
    url: string;
    enabled: boolean;
    secrets: string[];
  }>`
    with claimed as (
      update webhook_deliveries d
         set locked_until = now() + make_interval(secs => ${lockMs / 1000})
       where d.id = ${deliveryId}::uuid and d.status = 'pending' and d.attempts = ${attempt}
         and (d.locked_until is null or d.locked_until < now())
      returning d.id, d.attempts, d.attempt_limit, d.event_id, d.endpoint_id
    )
    select c.id, c.attempts, c.attempt_limit, c.event_id, ev.body, c.endpoint_id, e.url, e.enabled,
           array_remove(array[e.secret,
             case when e.previous_secret_expires_at > now() then e.previous_secret end], null) as secrets
      from claimed c
      join webhook_events ev on ev.id = c.event_id
      join webhook_endpoints e on e.id = c.endpoint_id`.execute(db);
  const row = rows[0];
  return (
    row && {
      id: row.id,
      attempts: row.attempts,
      attemptLimit: row.attempt_limit,
      eventId: row.event_id,
      body: row.body,
      endpoint: { id: row.endpoint_id, url: row.url, enabled: row.enabled, secrets: row.secrets },
    }
  );
}

/**
 * Records one attempt on the delivery and releases it, and appends it to the delivery's attempt log, in one
 * statement (the attempt's number is the delivery's count after it).
 */
export async function updateWebhookDeliveryAttempt(
  db: DbOrTx,
  deliveryId: string,
  result: WebhookAttemptResult,
): Promise<void> {
  const { outcome } = result;
  const status = outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'retry' ? 'pending' : 'failed';
  const nextAttemptAt = outcome.kind === 'retry' ? outcome.nextAttemptAt : null;
  const error = result.error === null ? null : result.error.slice(0, 500);
  const durationMs = Math.round(result.durationMs);
  await sql`
    with recorded as (
      update webhook_deliveries
         set attempts = attempts + 1,
             status = ${status}::text,
             next_attempt_at = ${nextAttemptAt}::timestamptz,
             locked_until = null,
             last_attempt_at = now(),
             last_status_code = ${result.statusCode}::integer,
             last_error = ${error}::text,
             last_duration_ms = ${durationMs}::integer,
             delivered_at = case when ${status}::text = 'delivered' then now() else delivered_at end
       where id = ${deliveryId}::uuid
      returning id, attempts
    )
    insert into webhook_delivery_attempts
      (delivery_id, attempt, status_code, duration_ms, error, response_excerpt, next_attempt_at)
    select id, attempts, ${result.statusCode}::integer, ${durationMs}::integer, ${error}::text,
           ${result.responseExcerpt}::text, ${nextAttemptAt}::timestamptz
      from recorded
    on conflict (delivery_id, attempt) do nothing`.execute(db);
}

/** A failed delivery of an endpoint that is already disabled: no attempt made. */
export async function failWebhookDeliveryUnsent(
  db: DbOrTx,
  deliveryId: string,
  error: string,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, locked_until: null, last_error: error })
    .where('id', '=', deliveryId)
    .execute();
}

/** A success ends the endpoint's run of failures. */
export async function clearWebhookEndpointFailing(db: DbOrTx, endpointId: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', endpointId)
    .where('failing_since', 'is not', null)
    .execute();
}

/**
 * A failed attempt: starts the endpoint's run of failures if none is running, and disables it with
 * `goneReason` (410), or when the run started before `failingSinceLimit`. Returns the reason when this
 * call disabled it.
 */
export async function recordWebhookEndpointFailure(
  db: DbOrTx,
  endpointId: string,
  failingSinceLimit: Date,
  goneReason: string | null,
): Promise<string | null> {
  const { rows } = await sql<{ disabled_reason: string | null }>`
    update webhook_endpoints
       set failing_since = coalesce(failing_since, now()),
           enabled = case when ${goneReason}::text is not null or failing_since < ${failingSinceLimit}
                          then false else enabled end,
           disabled_reason = case
             when not enabled then disabled_reason
             when ${goneReason}::text is not null then ${goneReason}::text
             when failing_since < ${failingSinceLimit}
               then 'every delivery failed since ' || to_char(failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"')
             else disabled_reason end,
           disabled_at = case
             when enabled and (${goneReason}::text is not null or failing_since < ${failingSinceLimit}) then now()
             else disabled_at end
     where id = ${endpointId}::uuid
    returning case when disabled_at = now() and not enabled then disabled_reason end as disabled_reason`.execute(
    db,
  );
  return rows[0]?.disabled_reason ?? null;
}

/**
 * Pending deliveries that are due (and not held by an attempt in flight), oldest due first: the sweep
 * (re-)enqueues their jobs, which is how nothing is lost while Redis or the worker was down.
 */
export async function findDueWebhookDeliveries(db: DbOrTx, limit: number): Promise<DueWebhookDelivery[]> {
  return db
    .selectFrom('webhook_deliveries')
    .select(['id', 'attempts'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', sql<Date>`now()`)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}
