import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db, DbOrTx, Tx } from '../db/create-db';
import type { AuditLogTable } from '../db/tables';
import {
  type AuditActorType,
  type AuditChanges,
  type AuditEvent,
  type AuditEventInput,
  auditAppendArguments,
  auditChanges,
  auditRowHash,
} from './audit-event';

type AuditLogRow = Selectable<AuditLogTable>;

export function toAuditEvent(row: AuditLogRow): AuditEvent {
  return {
    seq: Number(row.seq),
    at: row.at,
    actor: { type: row.actor_type as AuditActorType, id: row.actor_id, label: row.actor_label },
    address: row.address,
    action: row.action,
    objectType: row.object_type,
    objectId: row.object_id,
    siteId: row.site_id,
    changes: (row.changes as AuditChanges | null) ?? null,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * Appends events to the chain inside `trx`. It locks the chain's one-row head until `trx` ends, so call it as the
 * LAST statement of the writing transaction: appends are serialised only for that short tail, and an event is
 * stored exactly when the change it records commits.
 */
export async function insertAuditEvents(trx: Tx, events: readonly AuditEventInput[]): Promise<AuditEvent[]> {
  if (events.length === 0) return [];
  const head = await trx
    .selectFrom('audit_chain')
    .select(['head_seq', 'head_hash'])
    .forUpdate()
    .executeTakeFirstOrThrow();
  let seq = Number(head.head_seq);
  let prevHash = head.head_hash;
  // Taken under the lock, so `at` follows `seq` within one clock.
  const at = new Date();
  const rows: AuditEvent[] = events.map((event) => {
    seq += 1;
    const row = { ...event, seq, at, changes: auditChanges(event.changes) };
    const hash = auditRowHash(prevHash, row);
    const stored: AuditEvent = { ...row, prevHash, hash };
    prevHash = hash;
    return stored;
  });
  const last = rows[rows.length - 1] as AuditEvent;
  await sql`with added as (${trx.insertInto('audit_log').values(
    rows.map((row) => ({
      seq: String(row.seq),
      at: row.at,
      actor_type: row.actor.type,
      actor_id: row.actor.id,
      actor_label: row.actor.label,
      address: row.address,
      action: row.action,
      object_type: row.objectType,
      object_id: row.objectId,
      site_id: row.siteId,
      changes: row.changes === null ? null : JSON.stringify(row.changes),
      prev_hash: row.prevHash,
      hash: row.hash,
    })),
  )})
  update audit_chain set head_seq = ${String(last.seq)}, head_prev_hash = ${last.prevHash}, head_hash = ${last.hash}
  where id`.execute(trx);
  return rows;
}

/**
 * Appends one event in one statement (audit_append: lock, number, hash, store). `relaxed` when the statement is
 * its own transaction: its commit then does not wait for the WAL flush (docs/audit.md).
 */
export async function appendAuditRow(
  db: DbOrTx,
  event: AuditEventInput,
  relaxed: boolean,
): Promise<AuditEvent> {
  const { row, values } = auditAppendArguments(event, relaxed);
  const [at, actorType, actorId, actorLabel, address, action, objectType, objectId, siteId, changes, body] =
    values;
  const { rows } = await sql<{ seq: string; prev_hash: string; hash: string }>`select * from audit_append(
    ${at}, ${actorType}, ${actorId}, ${actorLabel}, ${address}, ${action}, ${objectType}, ${objectId}, ${siteId},
    ${changes}::jsonb, ${body}, ${relaxed})`.execute(db);
  const stored = rows[0] as { seq: string; prev_hash: string; hash: string };
  return { ...row, seq: Number(stored.seq), prevHash: stored.prev_hash, hash: stored.hash };
}

export interface AuditChainState {
  headSeq: number;
  headHash: string;
  startSeq: number;
  startPrevHash: string;
}

export async function findAuditChain(db: DbOrTx): Promise<AuditChainState> {
  const row = await db.selectFrom('audit_chain').selectAll().executeTakeFirstOrThrow();
  return {
    headSeq: Number(row.head_seq),
    headHash: row.head_hash,
    startSeq: Number(row.start_seq),
    startPrevHash: row.start_prev_hash,
  };
}

/** Rows with seq > afterSeq, oldest first, at most `limit`. */
export async function findAuditRowsAfter(db: DbOrTx, afterSeq: number, limit: number): Promise<AuditEvent[]> {
  const rows = await db
    .selectFrom('audit_log')
    .selectAll()
    .where('seq', '>', String(afterSeq))
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(toAuditEvent);
}

export interface AuditFilter {
  actorId?: string;
  action?: string;
  objectType?: string;
  objectId?: string;
  siteId?: string;
  from?: Date;
  to?: Date;
}

/** Newest first, keyset by seq: rows with seq < beforeSeq (all when undefined) that match the filter. */
export async function findAuditRows(
  db: DbOrTx,
  filter: AuditFilter,
  page: { beforeSeq?: number; afterSeq?: number; limit: number; order: 'asc' | 'desc' },
): Promise<AuditEvent[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.objectType !== undefined) query = query.where('object_type', '=', filter.objectType);
  if (filter.objectId !== undefined) query = query.where('object_id', '=', filter.objectId);
  if (filter.siteId !== undefined) query = query.where('site_id', '=', filter.siteId);
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('at', '<', filter.to);
  if (page.beforeSeq !== undefined) query = query.where('seq', '<', String(page.beforeSeq));
  if (page.afterSeq !== undefined) query = query.where('seq', '>', String(page.afterSeq));
  const rows = await query.orderBy('seq', page.order).limit(page.limit).execute();
  return rows.map(toAuditEvent);
}

/** One bounded pruning batch through the database's one deleting path (audit_prune_batch). */
export async function pruneAuditBatch(db: Db, cutoff: Date, batchSize: number): Promise<number> {
  const { rows } = await sql<{
    removed: number;
  }>`select audit_prune_batch(${cutoff}, ${batchSize}) as removed`.execute(db);
  return Number(rows[0]?.removed ?? 0);
}
