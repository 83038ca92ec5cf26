import type { Db, DbOrTx } from '../db/create-db';
import type { SiteRole, UserRole } from '../db/tables';
import { ConflictError, DomainValidationError, NotFoundError } from '../errors';
import { deleteDashboardSessionsOfUser } from './sessions/dashboard-session.repository';
import {
  countOtherLiveAdministrators,
  findKnownSiteIds,
  findTeamMembers,
  lockStaffUser,
  markUserDeleted,
  replaceGrants,
  setUserDisabledAt,
  type TeamMember,
  updateUserRole,
} from './team.repository';

/** The roles a staff user may have (publishers are created as publishers, never by a role change). */
export type StaffRole = Exclude<UserRole, 'publisher'>;
export const staffRoles = [
  'admin',
  'editor',
  'contributor',
  'reviewer',
] as const satisfies readonly StaffRole[];
export const siteRoles = ['editor', 'contributor', 'reviewer'] as const satisfies readonly SiteRole[];

export interface StaffAccess {
  role: StaffRole;
  grants: readonly { siteId: string; role: SiteRole }[];
}

export async function listTeam(db: Db): Promise<TeamMember[]> {
  return findTeamMembers(db);
}

export async function getTeamMember(db: Db, id: string): Promise<TeamMember> {
  const [member] = await findTeamMembers(db, id);
  if (!member) throw new NotFoundError('user', id);
  return member;
}

/**
 * Role and grants as stored: an administrator holds no grants (it may do everything); one grant per site;
 * every site must exist (DomainValidationError UNKNOWN_SITE / INVALID_GRANTS).
 */
export async function assertValidAccess(db: Db, access: StaffAccess): Promise<void> {
  if (access.role === 'admin' && access.grants.length > 0) {
    throw new DomainValidationError(
      'INVALID_GRANTS',
      'An administrator holds no site grants: it may do everything',
    );
  }
  const siteIds = access.grants.map((grant) => grant.siteId);
  if (new Set(siteIds).size !== siteIds.length) {
    throw new DomainValidationError('INVALID_GRANTS', 'One grant per site: a site is named twice');
  }
  const known = await findKnownSiteIds(db, siteIds);
  const unknown = siteIds.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new DomainValidationError('UNKNOWN_SITE', `Unknown site: ${unknown.join(', ')}`);
}

/** The last live administrator cannot be demoted, suspended or deleted: nobody could manage the team then. */
async function assertNotLastAdministrator(db: DbOrTx, id: string, role: UserRole): Promise<void> {
  if (role === 'admin' && (await countOtherLiveAdministrators(db, id)) === 0) {
    throw new ConflictError(
      'LAST_ADMINISTRATOR',
      'This is the last administrator: appoint another one first',
    );
  }
}

/** Changes a staff user's role and grants; effective on its next request (guards read both fresh). */
export async function changeUserAccess(db: Db, id: string, access: StaffAccess): Promise<TeamMember> {
  await assertValidAccess(db, access);
  await db.transaction().execute(async (tx) => {
    const user = await lockStaffUser(tx, id);
    if (!user) throw new NotFoundError('user', id);
    if (access.role !== 'admin') await assertNotLastAdministrator(tx, id, user.role);
    await updateUserRole(tx, id, access.role);
    await replaceGrants(tx, id, access.grants);
  });
  return getTeamMember(db, id);
}

/**
 * Suspends a staff user: its tokens and dashboard sessions end at once (tokens are refused while it is
 * disabled, sessions are deleted); its content stays. Not oneself, not the last administrator.
 */
export async function suspendUser(db: Db, id: string, byUserId: string): Promise<TeamMember> {
  if (id === byUserId) throw new ConflictError('CANNOT_SUSPEND_SELF', 'You cannot suspend yourself');
  await db.transaction().execute(async (tx) => {
    const user = await lockStaffUser(tx, id);
    if (!user) throw new NotFoundError('user', id);
    await assertNotLastAdministrator(tx, id, user.role);
    await setUserDisabledAt(tx, id, new Date());
    await deleteDashboardSessionsOfUser(tx, id);
  });
  return getTeamMember(db, id);
}

export async function reinstateUser(db: Db, id: string): Promise<TeamMember> {
  await db.transaction().execute(async (tx) => {
    if (!(await lockStaffUser(tx, id))) throw new NotFoundError('user', id);
    await setUserDisabledAt(tx, id, null);
  });
  return getTeamMember(db, id);
}

/**
 * Deletes a staff user: the login is gone for good (tokens and sessions end, grants dropped), the row stays so
 * its articles keep their creator and history. Not oneself, not the last administrator.
 */
export async function deleteUser(db: Db, id: string, byUserId: string): Promise<void> {
  if (id === byUserId) throw new ConflictError('CANNOT_DELETE_SELF', 'You cannot delete yourself');
  await db.transaction().execute(async (tx) => {
    const user = await lockStaffUser(tx, id);
    if (!user) throw new NotFoundError('user', id);
    await assertNotLastAdministrator(tx, id, user.role);
    await markUserDeleted(tx, id);
    await deleteDashboardSessionsOfUser(tx, id);
  });
}
