import type { Db } from '../db/create-db';
import type { PasswordHasher } from './password-hasher';
import { replacePasswordEndingSessions } from './password-replacement.service';
import type { User } from './user';
import { findLoginByEmail, insertUserIfEmailFree } from './user.repository';

export type EnsureAdministratorOutcome =
  /** No login had this e-mail: an administrator was created. */
  | 'created'
  /** An administrator with this e-mail exists; its password was left as it was. */
  | 'exists'
  /** An administrator with this e-mail exists and `resetPassword` was asked: its password was replaced. */
  | 'password-reset'
  /** A publisher login uses this e-mail; nothing was changed. */
  | 'email-used-by-publisher';

/**
 * Makes sure an administrator login with `email` exists (the first administrator, from start-up
 * configuration or `pnpm admin:create`). Idempotent: never duplicates a login, and never changes an
 * existing password unless `resetPassword` is set.
 */
export async function ensureAdministrator(
  db: Db,
  hasher: PasswordHasher,
  credentials: { email: string; password: string },
  options: { resetPassword?: boolean } = {},
): Promise<{ outcome: EnsureAdministratorOutcome; user: User }> {
  const email = credentials.email.trim();
  const existing = await findLoginByEmail(db, email);
  if (!existing) {
    const passwordHash = await hasher.hash(credentials.password);
    const created = await insertUserIfEmailFree(db, { email, password_hash: passwordHash, role: 'admin' });
    // Lost a race with another process creating the same login: theirs stands.
    if (!created) return ensureAdministrator(db, hasher, credentials, { resetPassword: false });
    return { outcome: 'created', user: created };
  }
  if (existing.user.role !== 'admin') return { outcome: 'email-used-by-publisher', user: existing.user };
  if (!options.resetPassword) return { outcome: 'exists', user: existing.user };
  // Like any password change, a reset ends the administrator's existing tokens and dashboard sessions.
  await replacePasswordEndingSessions(db, existing.user.id, await hasher.hash(credentials.password));
  return { outcome: 'password-reset', user: existing.user };
}
