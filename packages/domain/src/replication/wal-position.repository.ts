import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import { parseWalPosition } from './wal-position';

/**
 * Where the primary's WAL ends now: every transaction committed before this call (its commit record inserted,
 * even with synchronous_commit off, as the audit trigger sets) lies before it.
 */
export async function findPrimaryWalPosition(db: DbOrTx): Promise<bigint> {
  const { rows } = await sql<{
    position: string;
  }>`select pg_current_wal_insert_lsn()::text as position`.execute(db);
  return parseWalPosition((rows[0] as { position: string }).position);
}

/**
 * How far a streaming replica has replayed (what its queries see), or null when the server is not in recovery
 * (a primary, or a replica promoted: its data is no longer the primary's past).
 */
export async function findReplayedWalPosition(db: DbOrTx): Promise<bigint | null> {
  const { rows } = await sql<{ position: string | null }>`
    select case when pg_is_in_recovery() then pg_last_wal_replay_lsn()::text end as position`.execute(db);
  const position = rows[0]?.position ?? null;
  return position === null ? null : parseWalPosition(position);
}
