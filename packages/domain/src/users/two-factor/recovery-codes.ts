import { createHash, randomBytes } from 'node:crypto';
import { base32Encode } from './totp';

/** How many recovery codes a user gets at enrolment and at each regeneration. */
export const recoveryCodeCount = 10;

/**
 * A new recovery code: 10 random bytes (80 bits) in base32, shown as XXXX-XXXX-XXXX-XXXX. That much
 * entropy lets a plain SHA-256 be the stored form (no slow hash needed to resist guessing from a copy).
 */
export function newRecoveryCode(): string {
  const text = base32Encode(randomBytes(10));
  return text.match(/.{4}/g)?.join('-') ?? text;
}

/** What a typed code is compared as: upper case, without spaces and dashes. */
export const normaliseRecoveryCode = (code: string): string => code.replace(/[\s-]/g, '').toUpperCase();

export const looksLikeRecoveryCode = (code: string): boolean =>
  /^[A-Z2-7]{16}$/.test(normaliseRecoveryCode(code));

export const hashRecoveryCode = (code: string): Buffer =>
  createHash('sha256').update(normaliseRecoveryCode(code)).digest();
