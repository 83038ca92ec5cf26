import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompiledQuery } from 'kysely';

/** A row inserted by a transaction, with its `id` (what a creation's follow-up may need to name). */
export interface InsertedRow {
  table: string;
  id: string;
}

/**
 * Work that must commit with a change: a statement the change's first writing transaction (one whose INSERT,
 * UPDATE or DELETE changed a row) runs last, in the same round trip as its COMMIT (unit-of-work-driver.ts).
 * The audit log's row is one (audit/audit-unit.ts).
 */
export interface UnitOfWork {
  /** Still owed: no transaction of the unit has committed its closing statement yet. */
  readonly owed: boolean;
  /** The closing statement (SQL, values quoted in it), given the rows the transaction inserted; marks it taken. */
  close(inserted: readonly InsertedRow[]): string;
  /** The closing statement or its COMMIT failed (the transaction rolls back): owed again; the error to throw. */
  reopen(error: unknown): unknown;
}

const units = new AsyncLocalStorage<UnitOfWork>();

/** Runs `change` as one unit of work: its first writing transaction ends with `unit`'s closing statement. */
export function runUnitOfWork<T>(unit: UnitOfWork, change: () => T): T {
  return units.run(unit, change);
}

/** The running unit of work, while it is owed. */
export function owedUnitOfWork(): UnitOfWork | undefined {
  const unit = units.getStore();
  return unit?.owed ? unit : undefined;
}

const writesOrFails = new WeakSet<CompiledQuery>();

/**
 * Marks `query` as a write that changes a row or fails (an edit whose statement raises when it matched none): sent
 * outside a transaction while a unit is owed, it goes with the unit's closing statement in one text, one round
 * trip, which Postgres runs as one implicit transaction (unit-of-work-driver.ts). Not for a creation: the closing
 * statement is written before the write answers, so it cannot name a row the write inserts. Answers `query`.
 */
export function markWritesOrFails(query: CompiledQuery): CompiledQuery {
  writesOrFails.add(query);
  return query;
}

/** Whether `query` was marked by markWritesOrFails. */
export function isWriteOrFail(query: CompiledQuery): boolean {
  return writesOrFails.has(query);
}
