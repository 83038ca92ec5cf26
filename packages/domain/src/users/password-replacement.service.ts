import type { Db, Tx } from '../db/create-db';
import { deleteDashboardSessionsOfUser } from './sessions/dashboard-session.repository';
import { replaceUserPassword } from './user.repository';

/**
 * The one way a password is replaced, whatever asked for it (own change, an administrator's reset of a
 * publisher, `pnpm admin:create --reset-password`): the new hash, the token version bumped (every bearer
 * token of the user is refused from now on) and every dashboard session of the user deleted, in one
 * transaction. A password change is what someone does who thinks another has the password, so nothing
 * signed in with the old one may outlive it, except `keepSessionId`: the dashboard session a person
 * changed their own password in (they want the others out, not themselves). False when there is no such user.
 */
export async function replacePasswordEndingSessions(
  db: Db,
  userId: string,
  passwordHash: string,
  keepSessionId?: string,
): Promise<boolean> {
  return db
    .transaction()
    .execute((trx) => replacePasswordInTransaction(trx, userId, passwordHash, keepSessionId));
}

/** replacePasswordEndingSessions inside a caller's transaction (a reset link consumed in the same one). */
export async function replacePasswordInTransaction(
  trx: Tx,
  userId: string,
  passwordHash: string,
  keepSessionId?: string,
): Promise<boolean> {
  if (!(await replaceUserPassword(trx, userId, passwordHash))) return false;
  await deleteDashboardSessionsOfUser(trx, userId, keepSessionId);
  return true;
}
