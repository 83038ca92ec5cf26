import { sql } from 'kysely';
import type { DbOrTx } from '../../db/create-db';
import type { User } from '../user';

/** A live session row with its user, read only while both may still act. */
export interface DashboardSessionRecord {
  id: string;
  user: User;
  lastSeenAt: Date;
  expiresAt: Date;
  /** When the session's second factor was verified; null: never. */
  secondFactorAt: Date | null;
}

export async function insertDashboardSession(
  db: DbOrTx,
  row: { tokenHash: Buffer; userId: string; expiresAt: Date; secondFactorAt?: Date | null },
): Promise<string> {
  const inserted = await db
    .insertInto('dashboard_sessions')
    .values({
      token_hash: row.tokenHash,
      user_id: row.userId,
      expires_at: row.expiresAt,
      second_factor_at: row.secondFactorAt ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/**
 * The session with this token hash, unless it is past its absolute end, idle since before
 * `idleSince`, or its login (or the login's publisher) is disabled.
 */
export async function findLiveDashboardSession(
  db: DbOrTx,
  tokenHash: Buffer,
  idleSince: Date,
): Promise<DashboardSessionRecord | undefined> {
  const row = await db
    .selectFrom('dashboard_sessions')
    .innerJoin('users', 'users.id', 'dashboard_sessions.user_id')
    .leftJoin('publishers', 'publishers.id', 'users.publisher_id')
    .select([
      'dashboard_sessions.id',
      'dashboard_sessions.last_seen_at',
      'dashboard_sessions.expires_at',
      'dashboard_sessions.second_factor_at',
      'users.id as user_id',
      'users.email',
      'users.role',
      'users.publisher_id',
      'users.token_version',
    ])
    .where('dashboard_sessions.token_hash', '=', tokenHash)
    .where('dashboard_sessions.expires_at', '>', sql<Date>`now()`)
    .where('dashboard_sessions.last_seen_at', '>', idleSince)
    .where('users.disabled_at', 'is', null)
    .where('publishers.disabled_at', 'is', null)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      user: {
        id: row.user_id,
        email: row.email,
        role: row.role,
        publisherId: row.publisher_id,
        tokenVersion: row.token_version,
      },
      lastSeenAt: row.last_seen_at,
      expiresAt: row.expires_at,
      secondFactorAt: row.second_factor_at,
    }
  );
}

/** Records that the session's second factor was verified at `at` (its user just confirmed an enrolment). */
export async function markDashboardSessionSecondFactor(db: DbOrTx, id: string, at: Date): Promise<void> {
  await db.updateTable('dashboard_sessions').set({ second_factor_at: at }).where('id', '=', id).execute();
}

/** Marks the session as used now (the idle timeout counts from here). */
export async function touchDashboardSession(db: DbOrTx, id: string): Promise<void> {
  await db.updateTable('dashboard_sessions').set({ last_seen_at: sql`now()` }).where('id', '=', id).execute();
}

export async function deleteDashboardSessionByHash(db: DbOrTx, tokenHash: Buffer): Promise<boolean> {
  const result = await db
    .deleteFrom('dashboard_sessions')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Ends every session of a login but `exceptId` (e.g. after its password changed); returns how many. */
export async function deleteDashboardSessionsOfUser(
  db: DbOrTx,
  userId: string,
  exceptId?: string,
): Promise<number> {
  const result = await db
    .deleteFrom('dashboard_sessions')
    .where('user_id', '=', userId)
    .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId as string))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Housekeeping: sessions past their absolute end, and this login's idle ones. */
export async function deleteExpiredDashboardSessions(
  db: DbOrTx,
  userId: string,
  idleSince: Date,
): Promise<void> {
  await db
    .deleteFrom('dashboard_sessions')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', sql<Date>`now()`),
        eb.and([eb('user_id', '=', userId), eb('last_seen_at', '<=', idleSince)]),
      ]),
    )
    .execute();
}
