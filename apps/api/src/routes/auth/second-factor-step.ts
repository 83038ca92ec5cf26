import {
  type ChallengeKind,
  type ChallengeOutcome,
  type CodeCheck,
  challengeAttempts,
  secondFactorStanding,
  startSecondFactorChallenge,
  type User,
} from '@newsroom/domain';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http-error';

/**
 * After a right password: a user with TOTP gets a half-verified sign-in (202 and a challenge token) instead of
 * a token or a session; undefined for a user without a second factor (the sign-in completes at once).
 */
export async function secondFactorChallengeFor(app: FastifyInstance, user: User, kind: ChallengeKind) {
  if ((await secondFactorStanding(app.db, user, null)) !== 'unverified') return undefined;
  const { token, expiresAt } = await startSecondFactorChallenge(
    app.db,
    user.id,
    kind,
    app.secondFactorClock.now(),
  );
  return { secondFactor: 'totp' as const, challengeToken: token, expiresAt, attempts: challengeAttempts };
}

/** The HTTP refusal of a failed code check (sign-in second step, disable, new recovery codes). */
export function codeRefusal(
  result: Exclude<ChallengeOutcome | CodeCheck, { outcome: 'verified' | 'ok' }>,
  now: Date,
): HttpError {
  switch (result.outcome) {
    case 'locked': {
      const seconds = Math.max(1, Math.ceil((result.until.getTime() - now.getTime()) / 1000));
      return new HttpError(
        429,
        'TOO_MANY_SECOND_FACTOR_ATTEMPTS',
        `Too many wrong codes, try again in ${seconds} seconds`,
        { 'retry-after': String(seconds) },
      );
    }
    case 'replayed':
      return new HttpError(
        401,
        'SECOND_FACTOR_CODE_USED',
        'This code was already used: wait for the next one',
      );
    case 'invalid-challenge':
      return new HttpError(
        401,
        'SECOND_FACTOR_CHALLENGE_INVALID',
        'This sign-in expired or ran out of attempts: sign in with your password again',
      );
    case 'not-enrolled':
      return new HttpError(409, 'TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is not on');
    default:
      return new HttpError(
        401,
        'INVALID_SECOND_FACTOR_CODE',
        'attemptsLeft' in result ? `Wrong code (${result.attemptsLeft} attempts left)` : 'Wrong code',
      );
  }
}
