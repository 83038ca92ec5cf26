import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/create-db';

export interface TotpRecord {
  secretEncrypted: Buffer;
  confirmedAt: Date | null;
  lastUsedStep: number | null;
  failedAttempts: number;
  lockedUntil: Date | null;
}

const toTotpRecord = (row: {
  secret_encrypted: Buffer;
  confirmed_at: Date | null;
  last_used_step: string | null;
  failed_attempts: number;
  locked_until: Date | null;
}): TotpRecord => ({
  secretEncrypted: row.secret_encrypted,
  confirmedAt: row.confirmed_at,
  lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
  failedAttempts: row.failed_attempts,
  lockedUntil: row.locked_until,
});

const totpColumns = [
  'secret_encrypted',
  'confirmed_at',
  'last_used_step',
  'failed_attempts',
  'locked_until',
] as const;

export async function findTotp(db: DbOrTx, userId: string): Promise<TotpRecord | undefined> {
  const row = await db
    .selectFrom('user_totp')
    .select(totpColumns)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row && toTotpRecord(row);
}

/** The enrolment row locked for this transaction (code checks serialise per user: no double use of a step). */
export async function findTotpForUpdate(tx: Tx, userId: string): Promise<TotpRecord | undefined> {
  const row = await tx
    .selectFrom('user_totp')
    .select(totpColumns)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  return row && toTotpRecord(row);
}

/** Starts (or restarts) an unconfirmed enrolment; refuses (false) when a confirmed one exists. */
export async function upsertPendingTotp(
  db: DbOrTx,
  userId: string,
  secretEncrypted: Buffer,
): Promise<boolean> {
  const row = await db
    .insertInto('user_totp')
    .values({ user_id: userId, secret_encrypted: secretEncrypted })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({
          secret_encrypted: secretEncrypted,
          last_used_step: null,
          failed_attempts: 0,
          locked_until: null,
          created_at: sql`now()`,
        } as never)
        .where('user_totp.confirmed_at', 'is', null),
    )
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function updateTotp(
  db: DbOrTx,
  userId: string,
  changes: {
    confirmedAt?: Date;
    lastUsedStep?: number;
    failedAttempts?: number;
    lockedUntil?: Date | null;
  },
): Promise<void> {
  await db
    .updateTable('user_totp')
    .set({
      ...(changes.confirmedAt !== undefined && { confirmed_at: changes.confirmedAt }),
      ...(changes.lastUsedStep !== undefined && { last_used_step: changes.lastUsedStep }),
      ...(changes.failedAttempts !== undefined && { failed_attempts: changes.failedAttempts }),
      ...(changes.lockedUntil !== undefined && { locked_until: changes.lockedUntil }),
    })
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteTotp(db: DbOrTx, userId: string): Promise<void> {
  await db.deleteFrom('user_totp').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: DbOrTx, userId: string, hashes: Buffer[]): Promise<void> {
  await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length > 0) {
    await db
      .insertInto('user_recovery_codes')
      .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
      .execute();
  }
}

/** Marks an unused recovery code of the user as used; false when none matches (wrong or already used). */
export async function useRecoveryCode(db: DbOrTx, userId: string, hash: Buffer, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('user_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countUnusedRecoveryCodes(db: DbOrTx, userId: string): Promise<number> {
  const row = await db
    .selectFrom('user_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** In one round trip: when the user's TOTP was confirmed (null: none), and whether administrators must have one. */
export async function findSecondFactorPolicy(
  db: DbOrTx,
  userId: string,
): Promise<{ confirmedAt: Date | null; requireAdminTwoFactor: boolean }> {
  const row = await db
    .selectFrom('security_settings')
    .leftJoin('user_totp', (join) => join.on('user_totp.user_id', '=', userId))
    .select(['user_totp.confirmed_at', 'security_settings.require_admin_two_factor'])
    .executeTakeFirst();
  return {
    confirmedAt: row?.confirmed_at ?? null,
    requireAdminTwoFactor: row?.require_admin_two_factor ?? false,
  };
}

/**
 * Ends a user's other credentials when its second factor turns on: every dashboard session but `keepSessionId`
 * is deleted and the token version moves on (older tokens are refused). Returns the new token version.
 */
export async function endOtherCredentials(
  tx: Tx,
  userId: string,
  keepSessionId: string | null,
): Promise<number> {
  await tx
    .deleteFrom('dashboard_sessions')
    .where('user_id', '=', userId)
    .$if(keepSessionId !== null, (qb) => qb.where('id', '!=', keepSessionId as string))
    .execute();
  const row = await tx
    .updateTable('users')
    .set({ token_version: sql`token_version + 1` })
    .where('id', '=', userId)
    .returning('token_version')
    .executeTakeFirstOrThrow();
  return row.token_version;
}
