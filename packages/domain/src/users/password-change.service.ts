import type { Db } from '../db/create-db';
import { NotFoundError } from '../errors';
import { assertAcceptablePassword, type PasswordHasher } from './password-hasher';
import { replacePasswordEndingSessions } from './password-replacement.service';
import { findLoginOfPublisher, findPasswordHashById } from './user.repository';

export type ChangeOwnPasswordOutcome = 'changed' | 'wrong-current-password';

/**
 * A logged-in user replaces its own password; the current one must be given. The new password
 * follows the creation rules (DomainValidationError PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG, checked
 * before the current password is). On success every token the user holds, the current one
 * included, stops working (token version incremented), and so do its dashboard sessions except
 * `keepSessionId`: the dashboard session the change was made in stays signed in (a person changing
 * a password they think someone else knows wants the others out, not themselves).
 */
export async function changeOwnPassword(
  db: Db,
  hasher: PasswordHasher,
  userId: string,
  passwords: { currentPassword: string; newPassword: string },
  keepSessionId?: string,
): Promise<ChangeOwnPasswordOutcome> {
  assertAcceptablePassword(passwords.newPassword);
  const storedHash = await findPasswordHashById(db, userId);
  if (!(await hasher.verify(passwords.currentPassword, storedHash))) return 'wrong-current-password';
  const newHash = await hasher.hash(passwords.newPassword);
  if (!(await replacePasswordEndingSessions(db, userId, newHash, keepSessionId))) {
    return 'wrong-current-password';
  }
  return 'changed';
}

/**
 * An administrator sets a new password for a publisher's login (the way out of a forgotten
 * password). Same rules as creation; ends the publisher's existing tokens and dashboard sessions. Returns the login's
 * e-mail (the caller clears its login lockout). NotFoundError when the publisher has no login.
 */
export async function resetPublisherPassword(
  db: Db,
  hasher: PasswordHasher,
  publisherId: string,
  password: string,
): Promise<{ email: string }> {
  const passwordHash = await hasher.hash(password);
  const login = await findLoginOfPublisher(db, publisherId);
  if (!login || !(await replacePasswordEndingSessions(db, login.id, passwordHash))) {
    throw new NotFoundError('publisher', publisherId);
  }
  return { email: login.email };
}
