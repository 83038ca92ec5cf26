// What the purge relay and the senders write: the relay's position in the outbox, the purge requests the
// outbox does not record (site rows, by trigger), and the pending purges per provider and surrogate key.
import { sql } from 'kysely';
import type { ChangePosition } from '../changes/article-change';
import type { DbOrTx, Tx } from '../db/create-db';

/** The purge relay's position, locked for this transaction; undefined while another replica holds it. */
export async function lockCdnPurgePosition(tx: Tx): Promise<ChangePosition | undefined> {
  const { rows } = await sql<{ xid: string; article_id: string }>`
    select xid::text as xid, article_id from cdn_purge_position for update skip locked`.execute(tx);
  const row = rows[0];
  return row && { xid: row.xid, articleId: row.article_id };
}

export async function saveCdnPurgePosition(tx: Tx, position: ChangePosition): Promise<void> {
  await sql`update cdn_purge_position set xid = ${position.xid}::xid8, article_id = ${position.articleId}::uuid`.execute(
    tx,
  );
}

/** Takes (deletes and returns) up to `limit` purge requests written by triggers, skipping rows another holds. */
export async function takeCdnPurgeRequests(
  tx: Tx,
  limit: number,
): Promise<{ key: string; requestedAt: Date }[]> {
  const { rows } = await sql<{ key: string; requested_at: Date }>`
    delete from cdn_purge_requests where id in (
      select id from cdn_purge_requests order by id limit ${limit} for update skip locked)
    returning key, requested_at`.execute(tx);
  return rows.map((row) => ({ key: row.key, requestedAt: row.requested_at }));
}

/** One surrogate key to purge, with the time of the oldest change it covers. */
export interface PurgeRequest {
  key: string;
  requestedAt: Date;
}

/**
 * Records purges for every provider, coalesced: a key already pending stays one row (keeping its oldest
 * request time); a key in flight gets a new generation, so the sender that holds it does not delete it and it
 * is sent again (the change may have committed after that flight's purge reached the CDN).
 */
export async function upsertCdnPurges(
  db: DbOrTx,
  providers: readonly string[],
  requests: readonly PurgeRequest[],
): Promise<void> {
  if (providers.length === 0 || requests.length === 0) return;
  const oldest = new Map<string, Date>();
  for (const { key, requestedAt } of requests) {
    const known = oldest.get(key);
    if (!known || requestedAt < known) oldest.set(key, requestedAt);
  }
  const keys = [...oldest.keys()].sort();
  const times = keys.map((key) => (oldest.get(key) as Date).toISOString());
  await sql`
    insert into cdn_purges (provider, key, requested_at)
    select p.provider, k.key, k.requested_at
      from unnest(${[...providers]}::text[]) as p(provider)
     cross join unnest(${keys}::text[], ${times}::timestamptz[]) as k(key, requested_at)
    on conflict (provider, key) do update set
      generation = cdn_purges.generation + 1,
      requested_at = least(cdn_purges.requested_at, excluded.requested_at),
      next_attempt_at = now(),
      claimed_until = null`.execute(db);
}

/** A purge a sender holds: send it, then complete or defer it with the generation it read. */
export interface ClaimedPurge {
  key: string;
  generation: number;
  requestedAt: Date;
  attempts: number;
}

/**
 * Leases up to `limit` due purges of the provider for `leaseMs` (oldest request first): other senders skip
 * them until the lease ends, so a sender that dies mid-flight only delays its purges.
 */
export async function claimDueCdnPurges(
  db: DbOrTx,
  provider: string,
  limit: number,
  leaseMs: number,
): Promise<ClaimedPurge[]> {
  const { rows } = await sql<{ key: string; generation: number; requested_at: Date; attempts: number }>`
    update cdn_purges p set claimed_until = now() + ${leaseMs} * interval '1 millisecond',
                            attempts = p.attempts + 1
      from (select key from cdn_purges
             where provider = ${provider} and next_attempt_at <= now()
               and (claimed_until is null or claimed_until < now())
             order by requested_at, key
             limit ${limit}
             for update skip locked) due
     where p.provider = ${provider} and p.key = due.key
    returning p.key, p.generation, p.requested_at, p.attempts`.execute(db);
  return rows.map((row) => ({
    key: row.key,
    generation: row.generation,
    requestedAt: row.requested_at,
    attempts: row.attempts,
  }));
}

/** Removes sent purges, unless a newer request came for the key meanwhile (then it is sent again). */
export async function completeCdnPurges(
  db: DbOrTx,
  provider: string,
  purges: readonly ClaimedPurge[],
): Promise<void> {
  if (purges.length === 0) return;
  await sql`
    delete from cdn_purges p
     using unnest(${purges.map((p) => p.key)}::text[], ${purges.map((p) => p.generation)}::int[]) as s(key, generation)
     where p.provider = ${provider} and p.key = s.key and p.generation = s.generation`.execute(db);
}

/** A failed send: the purges are due again at `nextAttemptAt` (a newer request for a key keeps its own time). */
export async function deferCdnPurges(
  db: DbOrTx,
  provider: string,
  purges: readonly ClaimedPurge[],
  nextAttemptAt: Date,
): Promise<void> {
  if (purges.length === 0) return;
  await sql`
    update cdn_purges p set claimed_until = null, next_attempt_at = ${nextAttemptAt}
      from unnest(${purges.map((p) => p.key)}::text[], ${purges.map((p) => p.generation)}::int[]) as s(key, generation)
     where p.provider = ${provider} and p.key = s.key and p.generation = s.generation`.execute(db);
}

/** Pending purges of the provider and the age of the oldest (seconds; 0 when none): the lag gauge. */
export async function findCdnPurgeBacklog(
  db: DbOrTx,
  provider: string,
): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const { rows } = await sql<{ pending: string; age: number | null }>`
    select count(*)::text as pending,
           extract(epoch from now() - min(requested_at))::float8 as age
      from cdn_purges where provider = ${provider}`.execute(db);
  const row = rows[0];
  return { pending: Number(row?.pending ?? 0), oldestAgeSeconds: Math.max(0, row?.age ?? 0) };
}
