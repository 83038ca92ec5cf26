import { sql } from 'kysely';
import type { Db, DbOrTx } from '../../db/create-db';
import { ConflictError } from '../../errors';
import type { User } from '../user';
import { findTotp } from './two-factor.repository';

export interface SecuritySettings {
  /** Every administrator (staff user) must have a second factor before using any admin route. */
  requireAdminTwoFactor: boolean;
  updatedAt: Date;
  updatedBy: string | null;
}

export async function getSecuritySettings(db: DbOrTx): Promise<SecuritySettings> {
  const row = await db
    .selectFrom('security_settings')
    .select(['require_admin_two_factor', 'updated_at', 'updated_by'])
    .executeTakeFirstOrThrow();
  return {
    requireAdminTwoFactor: row.require_admin_two_factor,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
  };
}

/**
 * An administrator changes the security policy. Turning the 2FA requirement on needs the administrator's
 * own second factor first (ConflictError TWO_FACTOR_NOT_ENABLED): nobody locks themselves out by a click.
 */
export async function updateSecuritySettings(
  db: Db,
  actor: Pick<User, 'id'>,
  changes: { requireAdminTwoFactor: boolean },
): Promise<SecuritySettings> {
  if (changes.requireAdminTwoFactor && !(await findTotp(db, actor.id))?.confirmedAt) {
    throw new ConflictError(
      'TWO_FACTOR_NOT_ENABLED',
      'Turn on two-factor authentication for your own account before requiring it of every administrator',
    );
  }
  await db
    .updateTable('security_settings')
    .set({
      require_admin_two_factor: changes.requireAdminTwoFactor,
      updated_at: sql`now()`,
      updated_by: actor.id,
    })
    .execute();
  return getSecuritySettings(db);
}
