import type { Db, DbOrTx, Tx } from '../../db/create-db';
import { ConflictError } from '../../errors';
import type { PasswordHasher } from '../password-hasher';
import type { User } from '../user';
import { findPasswordHashById } from '../user.repository';
import {
  hashRecoveryCode,
  looksLikeRecoveryCode,
  newRecoveryCode,
  recoveryCodeCount,
} from './recovery-codes';
import type { SecretBox } from './secret-box';
import { base32Encode, matchTotpStep, newTotpSecret, otpauthUri } from './totp';
import {
  countUnusedRecoveryCodes,
  deleteTotp,
  endOtherCredentials,
  findSecondFactorPolicy,
  findTotp,
  findTotpForUpdate,
  replaceRecoveryCodes,
  updateTotp,
  upsertPendingTotp,
  useRecoveryCode,
} from './two-factor.repository';

/** The issuer name authenticator apps show next to the account. */
export const totpIssuer = 'Newsroom';

/**
 * The per-user lockout of code checks (sign-in second step, disable, regenerate): every 5th consecutive
 * wrong code locks the user's code checks for 15 minutes, doubling with each further lock up to a day.
 * A right code resets the count. With the ±1-step window an attacker who knows the password gets at
 * most 5 guesses per 15 minutes at first and fewer after.
 */
export const codeLockout = { failuresPerLock: 5, firstLockMs: 15 * 60_000, maxLockMs: 24 * 3600_000 };

export type CodeCheck =
  | { outcome: 'ok'; method: 'totp' | 'recovery-code' }
  | { outcome: 'wrong' | 'replayed' | 'not-enrolled' }
  | { outcome: 'locked'; until: Date };

export interface TwoFactorStatus {
  enabled: boolean;
  confirmedAt: Date | null;
  /** Unused recovery codes left (0 when not enabled). */
  recoveryCodesLeft: number;
  /** Whether the policy requires this user to have a second factor (administrators, when turned on). */
  required: boolean;
}

export async function getTwoFactorStatus(db: Db, user: Pick<User, 'id' | 'role'>): Promise<TwoFactorStatus> {
  const policy = await findSecondFactorPolicy(db, user.id);
  const enabled = policy.confirmedAt !== null;
  return {
    enabled,
    confirmedAt: policy.confirmedAt,
    recoveryCodesLeft: enabled ? await countUnusedRecoveryCodes(db, user.id) : 0,
    required: policy.requireAdminTwoFactor && isStaff(user),
  };
}

/** Staff: every dashboard user who is not a publisher's login. */
export const isStaff = (user: Pick<User, 'role'>): boolean => user.role !== 'publisher';

/**
 * Starts (or restarts) an enrolment: a new secret, stored sealed and unconfirmed. Answers the secret in
 * base32 and the otpauth URI for the QR code; they are never shown again once the enrolment is confirmed.
 * ConflictError TWO_FACTOR_ALREADY_ENABLED when the user has a confirmed one (disable it first).
 */
export async function startTotpEnrolment(
  db: Db,
  box: SecretBox,
  user: Pick<User, 'id' | 'email'>,
): Promise<{ secret: string; otpauthUri: string }> {
  const secret = newTotpSecret();
  if (!(await upsertPendingTotp(db, user.id, box.seal(secret)))) {
    throw new ConflictError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already on');
  }
  return { secret: base32Encode(secret), otpauthUri: otpauthUri(secret, user.email, totpIssuer) };
}

export type ConfirmOutcome =
  | { outcome: 'confirmed'; recoveryCodes: string[]; confirmedAt: Date; tokenVersion: number }
  | { outcome: 'wrong-code' | 'not-started' | 'already-enabled' };

/**
 * Confirms a started enrolment with a code from the app: it turns on, the code's step counts as used,
 * and ten recovery codes are made; they are answered once, and only their hashes are kept. Every other
 * credential of the user ends (its sessions but `keepSessionId`, its tokens by the token version, answered
 * for a new token): a session that never passed the second factor must not come back if it is turned off
 * later. The caller marks its own session verified at `confirmedAt` in the same transaction (`tx`).
 */
export async function confirmTotpEnrolment(
  tx: Tx,
  box: SecretBox,
  userId: string,
  code: string,
  now: Date = new Date(),
  keepSessionId: string | null = null,
): Promise<ConfirmOutcome> {
  const totp = await findTotpForUpdate(tx, userId);
  if (!totp) return { outcome: 'not-started' };
  if (totp.confirmedAt) return { outcome: 'already-enabled' };
  const step = matchTotpStep(box.open(totp.secretEncrypted), code.trim(), now);
  if (step === undefined) return { outcome: 'wrong-code' };
  await updateTotp(tx, userId, {
    confirmedAt: now,
    lastUsedStep: step,
    failedAttempts: 0,
    lockedUntil: null,
  });
  const recoveryCodes = await storeNewRecoveryCodes(tx, userId);
  const tokenVersion = await endOtherCredentials(tx, userId, keepSessionId);
  return { outcome: 'confirmed', recoveryCodes, confirmedAt: now, tokenVersion };
}

async function storeNewRecoveryCodes(db: DbOrTx, userId: string): Promise<string[]> {
  const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  await replaceRecoveryCodes(db, userId, codes.map(hashRecoveryCode));
  return codes;
}

/**
 * Checks a second-factor code of an enrolled user: a 6-digit TOTP code (its step must be later than the
 * last accepted one: a replay is refused) or an unused recovery code (used up by this check). Wrong and
 * replayed codes count towards the lockout (codeLockout); a locked user's codes are not even compared.
 * Runs in its own transaction with the user's enrolment row locked, so two requests cannot both use
 * one step.
 */
export async function checkSecondFactorCode(
  db: Db,
  box: SecretBox,
  userId: string,
  code: string,
  now: Date = new Date(),
): Promise<CodeCheck> {
  return db.transaction().execute(async (tx) => {
    const totp = await findTotpForUpdate(tx, userId);
    if (!totp?.confirmedAt) return { outcome: 'not-enrolled' } as const;
    if (totp.lockedUntil && totp.lockedUntil > now)
      return { outcome: 'locked', until: totp.lockedUntil } as const;
    const typed = code.trim();
    let failure: 'wrong' | 'replayed' = 'wrong';
    if (/^\d{6}$/.test(typed)) {
      const step = matchTotpStep(box.open(totp.secretEncrypted), typed, now);
      if (step !== undefined && (totp.lastUsedStep === null || step > totp.lastUsedStep)) {
        await updateTotp(tx, userId, { lastUsedStep: step, failedAttempts: 0, lockedUntil: null });
        return { outcome: 'ok', method: 'totp' } as const;
      }
      if (step !== undefined) failure = 'replayed';
    } else if (
      looksLikeRecoveryCode(typed) &&
      (await useRecoveryCode(tx, userId, hashRecoveryCode(typed), now))
    ) {
      await updateTotp(tx, userId, { failedAttempts: 0, lockedUntil: null });
      return { outcome: 'ok', method: 'recovery-code' } as const;
    }
    const failedAttempts = totp.failedAttempts + 1;
    const locks = Math.floor(failedAttempts / codeLockout.failuresPerLock);
    const lockedUntil =
      failedAttempts % codeLockout.failuresPerLock === 0
        ? new Date(
            now.getTime() + Math.min(codeLockout.maxLockMs, codeLockout.firstLockMs * 2 ** (locks - 1)),
          )
        : undefined;
    await updateTotp(tx, userId, { failedAttempts, ...(lockedUntil && { lockedUntil }) });
    return { outcome: failure } as const;
  });
}

/** Turns two-factor authentication off for a user: the secret and every recovery code are deleted. */
export async function disableTwoFactor(db: DbOrTx, userId: string): Promise<void> {
  await replaceRecoveryCodes(db, userId, []);
  await deleteTotp(db, userId);
}

/** New recovery codes for an enrolled user (the old ones stop working); answered once. */
export async function regenerateRecoveryCodes(db: Db, userId: string): Promise<string[]> {
  return db.transaction().execute(async (tx) => {
    const totp = await findTotp(tx, userId);
    if (!totp?.confirmedAt) {
      throw new ConflictError('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is not on');
    }
    return storeNewRecoveryCodes(tx, userId);
  });
}

/**
 * Where a credential stands on the second factor, given when its second factor was verified (null: never):
 * - 'verified': the user has TOTP and the credential's verification is not older than the enrolment;
 * - 'unverified': the user has TOTP but this credential never proved it (or proved an older enrolment);
 * - 'enrolment-required': no TOTP, and the policy requires one of this user (staff, when turned on);
 * - 'not-needed': no TOTP and none required.
 */
export type SecondFactorStanding = 'verified' | 'unverified' | 'enrolment-required' | 'not-needed';

export async function secondFactorStanding(
  db: DbOrTx,
  user: Pick<User, 'id' | 'role'>,
  verifiedAt: Date | null,
): Promise<SecondFactorStanding> {
  const policy = await findSecondFactorPolicy(db, user.id);
  if (policy.confirmedAt) {
    return verifiedAt && verifiedAt.getTime() >= policy.confirmedAt.getTime() ? 'verified' : 'unverified';
  }
  return policy.requireAdminTwoFactor && isStaff(user) ? 'enrolment-required' : 'not-needed';
}

/** Whether `password` is the user's own (turning the second factor off asks for both). */
export async function verifyOwnPassword(
  db: DbOrTx,
  hasher: PasswordHasher,
  userId: string,
  password: string,
): Promise<boolean> {
  return hasher.verify(password, await findPasswordHashById(db, userId));
}
