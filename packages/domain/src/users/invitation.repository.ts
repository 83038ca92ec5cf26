import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { DbOrTx } from '../db/create-db';
import type { InvitationTable, SiteRole } from '../db/tables';

export interface Invitation {
  id: string;
  email: string;
  role: Selectable<InvitationTable>['role'];
  grants: { siteId: string; role: SiteRole }[];
  expiresAt: Date;
  createdAt: Date;
}

const toInvitation = (row: Selectable<InvitationTable>): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  grants: row.grants,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
});

export async function insertInvitation(
  db: DbOrTx,
  row: Omit<Invitation, 'id' | 'createdAt'> & { tokenHash: string; invitedBy: string | null },
): Promise<Invitation> {
  const inserted = await db
    .insertInto('invitations')
    .values({
      email: row.email,
      role: row.role,
      grants: JSON.stringify(row.grants),
      token_hash: row.tokenHash,
      invited_by: row.invitedBy,
      expires_at: row.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toInvitation(inserted);
}

/** The invitation of a token while it may still be accepted (unused, unexpired). */
export async function findLiveInvitationByHash(
  db: DbOrTx,
  tokenHash: string,
): Promise<Invitation | undefined> {
  const row = await db
    .selectFrom('invitations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row && toInvitation(row);
}

/** Consumes an invitation: one UPDATE that only a live one passes, so two accepts cannot both succeed. */
export async function consumeInvitation(db: DbOrTx, tokenHash: string): Promise<Invitation | undefined> {
  const row = await db
    .updateTable('invitations')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst();
  return row && toInvitation(row);
}

/** Invitations not yet accepted and not expired, newest first. */
export async function findPendingInvitations(db: DbOrTx): Promise<Invitation[]> {
  const rows = await db
    .selectFrom('invitations')
    .selectAll()
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map(toInvitation);
}

export async function deletePendingInvitation(db: DbOrTx, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('invitations')
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertPasswordReset(
  db: DbOrTx,
  row: { userId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({ user_id: row.userId, token_hash: row.tokenHash, expires_at: row.expiresAt })
    .execute();
}

/** Consumes a reset link (and every other open link of the same user); the user it was for, if it was live. */
export async function consumePasswordReset(db: DbOrTx, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst();
  if (!row) return undefined;
  await db
    .updateTable('password_resets')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', row.user_id)
    .where('used_at', 'is', null)
    .execute();
  return row.user_id;
}
