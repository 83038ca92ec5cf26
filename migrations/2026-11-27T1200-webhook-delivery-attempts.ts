import { type Kysely, sql } from 'kysely';

/**
 * Every attempt of a webhook delivery, as Stripe and Svix show them: when, the answer's status, how long it
 * took, why it failed, the answer's first 1 KB, and when the next attempt was scheduled. The delivery row
 * keeps the summary of the last one; this table is the log. Rows go with their delivery (and its event).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhook_delivery_attempts (
      delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
      -- 1-based: the delivery's attempts count once this one was recorded.
      attempt integer not null,
      attempted_at timestamptz not null default now(),
      status_code integer,
      duration_ms integer not null,
      error text,
      response_excerpt text,
      next_attempt_at timestamptz,
      primary key (delivery_id, attempt)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists webhook_delivery_attempts`.execute(db);
}
