// Delivery attempts: claiming a due delivery, recording its outcome, the endpoint's run of failures.
import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { ClaimedWebhookDelivery, WebhookAttemptResult } from './webhook-delivery';

/** One attempt a job asks to make: number `attempt` (0-based: the attempts made before it) of a delivery. */
export interface WebhookClaimRequest {
  deliveryId: string;
  attempt: number;
}

/**
 * Claims attempts of pending deliveries for `lockMs` in one statement, with what sending them needs: one answer per
 * request, undefined when the delivery is gone, no longer pending, already past that attempt, or held by another
 * worker (a duplicate or stale job then does nothing). A delivery asked for twice in one call is given to the first.
 */
export async function claimWebhookDeliveries(
  db: DbOrTx,
  requests: readonly WebhookClaimRequest[],
  lockMs: number,
): Promise<(ClaimedWebhookDelivery | undefined)[]> {
  if (requests.length === 0) return [];
  const { rows } = await sql<ClaimedRow>`
    with wanted as (
      select distinct id, attempt
        from unnest(${requests.map((r) => r.deliveryId)}::uuid[], ${requests.map((r) => r.attempt)}::integer[])
          as w(id, attempt)
    ),
    claimed as (
      update webhook_deliveries d
         set locked_until = now() + make_interval(secs => ${lockMs / 1000})
        from wanted w
       where d.id = w.id and d.status = 'pending' and d.attempts = w.attempt
         and (d.locked_until is null or d.locked_until < now())
      returning d.id, d.attempts, d.attempt_limit, d.event_id, d.endpoint_id
    )
    ${selectClaimed}`.execute(db);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return requests.map(({ deliveryId, attempt }) => {
    const row = byId.get(deliveryId);
    if (!row || row.attempts !== attempt) return undefined;
    byId.delete(deliveryId);
    return toClaimed(row);
  });
}

/**
 * Claims up to `limit` due pending deliveries (oldest due first) for `lockMs`, in one statement, with what sending
 * them needs. Rows another worker is claiming at that moment are skipped (`for update skip locked`) and rows held by
 * an attempt in flight are not due, so no delivery goes to two workers at once, however many replicas run.
 */
export async function claimDueWebhookDeliveries(
  db: DbOrTx,
  limit: number,
  lockMs: number,
): Promise<ClaimedWebhookDelivery[]> {
  if (limit <= 0) return [];
  const { rows } = await sql<ClaimedRow>`
    with due as (
      select id
        from webhook_deliveries
       where status = 'pending' and next_attempt_at <= now()
         and (locked_until is null or locked_until < now())
       order by next_attempt_at
       limit ${limit}
         for update skip locked
    ),
    claimed as (
      update webhook_deliveries d
         set locked_until = now() + make_interval(secs => ${lockMs / 1000})
        from due
       where d.id = due.id
      returning d.id, d.attempts, d.attempt_limit, d.event_id, d.endpoint_id
    )
    ${selectClaimed}`.execute(db);
  return rows.map(toClaimed);
}

interface ClaimedRow {
  id: string;
  attempts: number;
  attempt_limit: number | null;
  event_id: string;
  body: string;
  endpoint_id: string;
  url: string;
  enabled: boolean;
  secrets: string[];
}

/** The claimed rows (CTE `claimed`) with their event's body, and their endpoint's address, state and secrets. */
const selectClaimed = sql`
    select c.id, c.attempts, c.attempt_limit, c.event_id, ev.body, c.endpoint_id, e.url, e.enabled,
           array_remove(array[e.secret,
             case when e.previous_secret_expires_at > now() then e.previous_secret end], null) as secrets
      from claimed c
      join webhook_events ev on ev.id = c.event_id
      join webhook_endpoints e on e.id = c.endpoint_id`;

function toClaimed(row: ClaimedRow): ClaimedWebhookDelivery {
  return {
    id: row.id,
    attempts: row.attempts,
    attemptLimit: row.attempt_limit,
    eventId: row.event_id,
    body: row.body,
    endpoint: { id: row.endpoint_id, url: row.url, enabled: row.enabled, secrets: row.secrets },
  };
}

/** claimWebhookDeliveries for one attempt. */
export async function claimWebhookDelivery(
  db: DbOrTx,
  deliveryId: string,
  attempt: number,
  lockMs: number,
): Promise<ClaimedWebhookDelivery | undefined> {
  const [claim] = await claimWebhookDeliveries(db, [{ deliveryId, attempt }], lockMs);
  return claim;
}

/**
 * Records attempts on their deliveries and releases them, and appends them to the deliveries' attempt logs, in one
 * statement (an attempt's number is its delivery's count after it).
 */
export async function updateWebhookDeliveryAttempts(
  db: DbOrTx,
  attempts: readonly { deliveryId: string; result: WebhookAttemptResult }[],
): Promise<void> {
  if (attempts.length === 0) return;
  const column = <T>(pick: (result: WebhookAttemptResult) => T) => attempts.map(({ result }) => pick(result));
  const statusOf = ({ outcome }: WebhookAttemptResult) =>
    outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'retry' ? 'pending' : 'failed';
  await sql`
    with attempt as (
      select *
        from unnest(
          ${attempts.map((a) => a.deliveryId)}::uuid[],
          ${column(statusOf)}::text[],
          ${column((r) => (r.outcome.kind === 'retry' ? r.outcome.nextAttemptAt.toISOString() : null))}::timestamptz[],
          ${column((r) => r.statusCode)}::integer[],
          ${column((r) => (r.error === null ? null : r.error.slice(0, 500)))}::text[],
          ${column((r) => Math.round(r.durationMs))}::integer[],
          ${column((r) => r.responseExcerpt)}::text[]
        ) as a(id, status, next_attempt_at, status_code, error, duration_ms, excerpt)
    ),
    recorded as (
      update webhook_deliveries d
         set attempts = d.attempts + 1,
             status = a.status,
             next_attempt_at = a.next_attempt_at,
             locked_until = null,
             last_attempt_at = now(),
             last_status_code = a.status_code,
             last_error = a.error,
             last_duration_ms = a.duration_ms,
             delivered_at = case when a.status = 'delivered' then now() else d.delivered_at end
        from attempt a
       where d.id = a.id
      returning d.id, d.attempts, a.status_code, a.duration_ms, a.error, a.excerpt, a.next_attempt_at
    )
    insert into webhook_delivery_attempts
      (delivery_id, attempt, status_code, duration_ms, error, response_excerpt, next_attempt_at)
    select id, attempts, status_code, duration_ms, error, excerpt, next_attempt_at
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

/** A success ends the endpoints' runs of failures. */
export async function clearWebhookEndpointsFailing(
  db: DbOrTx,
  endpointIds: readonly string[],
): Promise<void> {
  if (endpointIds.length === 0) return;
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', 'in', [...new Set(endpointIds)])
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
