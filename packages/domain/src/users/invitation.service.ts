import { appendAuditEvent } from '../audit/audit.service';
import type { Db } from '../db/create-db';
import type { SiteRole } from '../db/tables';
import { ConflictError, NotFoundError } from '../errors';
import {
  consumeInvitation,
  consumePasswordReset,
  deletePendingInvitation,
  findLiveInvitationByHash,
  findPendingInvitations,
  type Invitation,
  insertInvitation,
  insertPasswordReset,
} from './invitation.repository';
import { hashOneTimeToken, newOneTimeToken } from './one-time-token';
import { assertAcceptablePassword, type PasswordHasher } from './password-hasher';
import { replacePasswordInTransaction } from './password-replacement.service';
import { replaceGrants } from './team.repository';
import { assertValidAccess, type StaffAccess } from './team.service';
import type { User } from './user';
import { findLoginByEmail, findUserEmail, insertUserIfEmailFree } from './user.repository';

/** How long an invitation link stays valid, and a password reset link. */
export const invitationLifetimeMs = 7 * 24 * 3600_000;
export const passwordResetLifetimeMs = 3600_000;

/**
 * An administrator invites a person by e-mail with a role and grants: a one-time token (returned once, for the
 * link; only its hash is kept), valid 7 days. 409 EMAIL_TAKEN when a login with that e-mail exists.
 */
export async function inviteStaff(
  db: Db,
  invite: StaffAccess & { email: string; invitedBy: string },
  now: Date = new Date(),
): Promise<{ invitation: Invitation; token: string }> {
  await assertValidAccess(db, invite);
  if (await findLoginByEmail(db, invite.email)) {
    throw new ConflictError('EMAIL_TAKEN', `A login with the e-mail ${invite.email} exists already`);
  }
  const { token, hash } = newOneTimeToken();
  const invitation = await insertInvitation(db, {
    email: invite.email,
    role: invite.role,
    grants: [...invite.grants] as { siteId: string; role: SiteRole }[],
    expiresAt: new Date(now.getTime() + invitationLifetimeMs),
    tokenHash: hash,
    invitedBy: invite.invitedBy,
  });
  return { invitation, token };
}

export const listPendingInvitations = (db: Db) => findPendingInvitations(db);

export async function revokeInvitation(db: Db, id: string): Promise<void> {
  if (!(await deletePendingInvitation(db, id))) throw new NotFoundError('invitation', id);
}

/** What the invitation page shows before the password is set; 404 INVITATION_NOT_FOUND once used or expired. */
export async function previewInvitation(db: Db, token: string): Promise<Invitation> {
  const invitation = await findLiveInvitationByHash(db, hashOneTimeToken(token));
  if (!invitation) throw new NotFoundError('invitation', 'link');
  return invitation;
}

/**
 * Accepts an invitation: consumed in one UPDATE (single use, unexpired), the login created with its role and
 * grants and the chosen password (the usual rules), and its audit row (`acceptInvitation`, the new user as actor
 * and object, from `address`), all in one transaction.
 */
export async function acceptInvitation(
  db: Db,
  hasher: PasswordHasher,
  token: string,
  password: string,
  address: string | null,
): Promise<User> {
  assertAcceptablePassword(password);
  const passwordHash = await hasher.hash(password);
  return db.transaction().execute(async (tx) => {
    const invitation = await consumeInvitation(tx, hashOneTimeToken(token));
    if (!invitation) throw new NotFoundError('invitation', 'link');
    const user = await insertUserIfEmailFree(tx, {
      email: invitation.email,
      password_hash: passwordHash,
      role: invitation.role,
    });
    if (!user)
      throw new ConflictError('EMAIL_TAKEN', `A login with the e-mail ${invitation.email} exists already`);
    await replaceGrants(tx, user.id, invitation.grants);
    await appendAuditEvent(tx, userAuditEvent('acceptInvitation', user, address));
    return user;
  });
}

/**
 * "Forgot password": a one-time reset token (1 hour) for a live login with this e-mail, or undefined when
 * there is none. The caller answers the same either way.
 */
export async function startPasswordReset(
  db: Db,
  email: string,
  now: Date = new Date(),
): Promise<{ token: string; email: string } | undefined> {
  const login = await findLoginByEmail(db, email);
  if (!login?.active) return undefined;
  const { token, hash } = newOneTimeToken();
  await insertPasswordReset(db, {
    userId: login.user.id,
    tokenHash: hash,
    expiresAt: new Date(now.getTime() + passwordResetLifetimeMs),
  });
  return { token, email: login.user.email };
}

/**
 * Sets a new password through a reset link: consumed once (every other open link of the user with it), the
 * usual password rules, every older token and session of the user ended, and the audit row (`resetPassword`, the
 * user as actor and object, from `address`), in one transaction. 404 PASSWORD_RESET_NOT_FOUND.
 */
export async function completePasswordReset(
  db: Db,
  hasher: PasswordHasher,
  token: string,
  password: string,
  address: string | null,
): Promise<{ id: string; email: string }> {
  assertAcceptablePassword(password);
  const passwordHash = await hasher.hash(password);
  return db.transaction().execute(async (trx) => {
    const userId = await consumePasswordReset(trx, hashOneTimeToken(token));
    if (!userId) throw new NotFoundError('password_reset', 'link');
    await replacePasswordInTransaction(trx, userId, passwordHash);
    const user = await findUserEmail(trx, userId);
    await appendAuditEvent(trx, userAuditEvent('resetPassword', user, address));
    return user;
  });
}

/** The row of a credential set through a one-time link: the user is actor and object, never the token. */
const userAuditEvent = (action: string, user: { id: string; email: string }, address: string | null) => ({
  actor: { type: 'user' as const, id: user.id, label: user.email },
  address,
  action,
  objectType: 'user',
  objectId: user.id,
  siteId: null,
  changes: null,
});
