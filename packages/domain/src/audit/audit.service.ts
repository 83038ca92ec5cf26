import type { Db, DbOrTx } from '../db/create-db';
import { isDatabaseUnavailable } from '../db/pg-errors';
import { AuditNotWrittenError } from '../errors';
import {
  type AuditFilter,
  appendAuditRow,
  findAuditChain,
  findAuditRows,
  findAuditRowsAfter,
  insertAuditEvents,
  pruneAuditBatch,
} from './audit.repository';
import { type AuditEvent, type AuditEventInput, auditRowHash } from './audit-event';

const isTransaction = (db: DbOrTx) => db.isTransaction;

/**
 * Records one audit event. Inside a transaction, call it last (it locks the chain's head until the transaction
 * ends) and the event commits or rolls back with the change; with the pool it runs its own short transaction.
 *
 * `await appendAuditEvent(trx, { actor, address, action: 'user.totp_enable', objectType: 'user', objectId, siteId: null, changes: null })`
 */
export async function appendAuditEvent(db: DbOrTx, event: AuditEventInput): Promise<AuditEvent> {
  // Alone, its commit need not wait for the WAL flush: a crash can lose only the newest rows (a suffix, head
  // included, so the chain still verifies), and a row of a change that committed just before was never in that
  // change's transaction anyway (docs/audit.md, Known limits). In a caller's transaction it commits with it.
  if (!isTransaction(db)) return appendAuditRow(db, event, true);
  try {
    return await appendAuditRow(db, event, false);
  } catch (error) {
    // The caller's change rolls back with it: say so, rather than a bare database error.
    throw isDatabaseUnavailable(error) ? error : new AuditNotWrittenError(event.action, error);
  }
}

/** Several events at once, in order, in one short transaction (imports of history, tests, bulk tools). */
export function appendAuditEvents(db: Db, events: readonly AuditEventInput[]): Promise<AuditEvent[]> {
  return db.transaction().execute((trx) => insertAuditEvents(trx, events));
}

export interface AuditPage {
  items: AuditEvent[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  next: number | null;
}

/** Newest first, keyset-paged by seq. */
export async function listAuditEvents(
  db: DbOrTx,
  filter: AuditFilter,
  page: { before?: number; limit: number },
): Promise<AuditPage> {
  const rows = await findAuditRows(db, filter, {
    beforeSeq: page.before,
    limit: page.limit + 1,
    order: 'desc',
  });
  const items = rows.slice(0, page.limit);
  return { items, next: rows.length > page.limit ? (items[items.length - 1]?.seq ?? null) : null };
}

/** Every matching row, oldest first, read in batches of `batchSize` (bounded memory for exports). */
export async function* streamAuditEvents(
  db: DbOrTx,
  filter: AuditFilter,
  batchSize = 500,
): AsyncGenerator<AuditEvent> {
  let afterSeq = 0;
  for (;;) {
    const rows = await findAuditRows(db, filter, { afterSeq, limit: batchSize, order: 'asc' });
    yield* rows;
    if (rows.length < batchSize) return;
    afterSeq = (rows[rows.length - 1] as AuditEvent).seq;
  }
}

export type AuditVerification =
  | { ok: true; checked: number; startSeq: number; headSeq: number; headHash: string }
  | {
      ok: false;
      checked: number;
      /** The first row that was changed, or the seq where a removed row should be. */
      firstBadSeq: number;
      problem: 'edited' | 'removed' | 'head-mismatch';
      detail: string;
    };

/**
 * Walks the chain from its recorded start to its head, recomputing every hash. An edited row no longer hashes to
 * its stored hash (or the next row's prev_hash no longer matches it); a removed row leaves a gap in seq, or the
 * head no longer ends the chain. Reads in batches: memory stays bounded whatever the length.
 */
export async function verifyAuditChain(db: DbOrTx, batchSize = 1000): Promise<AuditVerification> {
  const chain = await findAuditChain(db);
  let expectedSeq = chain.startSeq;
  let prevHash = chain.startPrevHash;
  let checked = 0;
  let afterSeq = chain.startSeq - 1;
  for (;;) {
    const rows = await findAuditRowsAfter(db, afterSeq, batchSize);
    for (const row of rows) {
      if (row.seq > chain.headSeq) break; // appended after we read the head
      if (row.seq !== expectedSeq)
        return {
          ok: false,
          checked,
          firstBadSeq: expectedSeq,
          problem: 'removed',
          detail: `row ${expectedSeq} is missing (the next row kept is ${row.seq})`,
        };
      // The row before was rewritten with a recomputed hash (or the chain's first kept row was replaced).
      if (row.prevHash !== prevHash)
        return row.seq === chain.startSeq
          ? {
              ok: false,
              checked,
              firstBadSeq: row.seq,
              problem: 'removed',
              detail: `row ${row.seq} does not chain to the chain's start`,
            }
          : {
              ok: false,
              checked,
              firstBadSeq: row.seq - 1,
              problem: 'edited',
              detail: `row ${row.seq - 1} was changed (row ${row.seq} no longer chains to it)`,
            };
      if (auditRowHash(prevHash, row) !== row.hash)
        return {
          ok: false,
          checked,
          firstBadSeq: row.seq,
          problem: 'edited',
          detail: `row ${row.seq} was changed`,
        };
      prevHash = row.hash;
      expectedSeq += 1;
      checked += 1;
    }
    if (rows.length < batchSize || (rows[rows.length - 1] as AuditEvent).seq >= chain.headSeq) break;
    afterSeq = (rows[rows.length - 1] as AuditEvent).seq;
  }
  if (expectedSeq !== chain.headSeq + 1 || (checked > 0 && prevHash !== chain.headHash))
    return {
      ok: false,
      checked,
      firstBadSeq: expectedSeq,
      problem: expectedSeq <= chain.headSeq ? 'removed' : 'head-mismatch',
      detail: `the chain ends at ${expectedSeq - 1} but its head says ${chain.headSeq}`,
    };
  return { ok: true, checked, startSeq: chain.startSeq, headSeq: chain.headSeq, headHash: chain.headHash };
}

/**
 * Deletes events older than `retentionDays`, oldest first, in batches of `batchSize`, at most `maxBatches` per call
 * (the next run goes on). Each batch moves the chain's start past what it removed, so the rest still verifies.
 */
export async function pruneAuditLog(
  db: Db,
  options: { retentionDays: number; now?: Date; batchSize?: number; maxBatches?: number },
): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.retentionDays * 86_400_000);
  const batchSize = options.batchSize ?? 1000;
  let removed = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 100); batch++) {
    const count = await pruneAuditBatch(db, cutoff, batchSize);
    removed += count;
    if (count < batchSize) break;
  }
  return removed;
}
