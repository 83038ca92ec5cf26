import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, DbOrTx } from '../../db/create-db';
import type { User } from '../user';
import { findActiveUserById } from '../user.repository';
import type { SecretBox } from './secret-box';
import { type CodeCheck, checkSecondFactorCode } from './two-factor.service';

/** A half-verified sign-in lives this long, and allows this many code attempts. */
export const challengeLifetimeMs = 5 * 60_000;
export const challengeAttempts = 5;

export type ChallengeKind = 'token' | 'session';

const hashOf = (token: string) => createHash('sha256').update(token).digest();

/**
 * After a right password of a user with TOTP: a half-verified sign-in. Its token (32 random bytes,
 * only the hash stored) is accepted by the second step of the sign-in and by nothing else: it is
 * neither a JWT nor a session token. Expired challenges are cleared on the way.
 */
export async function startSecondFactorChallenge(
  db: DbOrTx,
  userId: string,
  kind: ChallengeKind,
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  await db.deleteFrom('second_factor_challenges').where('expires_at', '<=', now).execute();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + challengeLifetimeMs);
  await db
    .insertInto('second_factor_challenges')
    .values({ token_hash: hashOf(token), user_id: userId, kind, expires_at: expiresAt })
    .execute();
  return { token, expiresAt };
}

export type ChallengeOutcome =
  | { outcome: 'verified'; user: User; method: 'totp' | 'recovery-code' }
  /** Unknown, expired, of the other kind, or out of attempts: sign in with the password again. */
  | { outcome: 'invalid-challenge' }
  | { outcome: 'wrong-code' | 'replayed'; attemptsLeft: number }
  | Extract<CodeCheck, { outcome: 'locked' }>;

/**
 * The second step of a sign-in: one attempt of the challenge is spent first (atomically, so parallel
 * guesses cannot exceed challengeAttempts), then the code is checked against the user's TOTP or recovery
 * codes (with the per-user lockout and replay refusal of checkSecondFactorCode). A verified or exhausted
 * challenge is deleted.
 */
export async function completeSecondFactorChallenge(
  db: Db,
  box: SecretBox,
  token: string,
  kind: ChallengeKind,
  code: string,
  now: Date = new Date(),
): Promise<ChallengeOutcome> {
  if (token.length === 0 || token.length > 200) return { outcome: 'invalid-challenge' };
  const tokenHash = hashOf(token);
  const challenge = await db
    .updateTable('second_factor_challenges')
    .set({ attempts: sql`attempts + 1` })
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', kind)
    .where('expires_at', '>', now)
    .where('attempts', '<', challengeAttempts)
    .returning(['id', 'user_id', 'attempts'])
    .executeTakeFirst();
  if (!challenge) return { outcome: 'invalid-challenge' };
  const check = await checkSecondFactorCode(db, box, challenge.user_id, code, now);
  const attemptsLeft = challengeAttempts - challenge.attempts;
  if (check.outcome === 'ok' || attemptsLeft === 0 || check.outcome === 'not-enrolled') {
    await db.deleteFrom('second_factor_challenges').where('id', '=', challenge.id).execute();
  }
  if (check.outcome === 'ok') {
    const user = await findActiveUserById(db, challenge.user_id);
    return user ? { outcome: 'verified', user, method: check.method } : { outcome: 'invalid-challenge' };
  }
  if (check.outcome === 'locked') return check;
  if (check.outcome === 'not-enrolled') return { outcome: 'invalid-challenge' };
  return { outcome: check.outcome === 'wrong' ? 'wrong-code' : 'replayed', attemptsLeft };
}
