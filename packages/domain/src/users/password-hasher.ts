import { hash as bcryptHash, verify as bcryptVerify, parseOptions } from '@node-rs/bcrypt';
import { DomainValidationError } from '../errors';

export const minPasswordLength = 12;
/** bcrypt only reads the first 72 bytes of a password; longer ones are refused, never silently cut. */
export const maxPasswordBytes = 72;

/** Hashes and checks dashboard passwords with bcrypt at one configured work factor. */
export interface PasswordHasher {
  readonly cost: number;
  /** Hashes an acceptable password (DomainValidationError when too short or too long). */
  hash(password: string): Promise<string>;
  /**
   * Whether `password` matches `hash`. With no hash (unknown e-mail) it still spends one bcrypt
   * comparison against a dummy hash, so a miss costs the same time as a wrong password.
   */
  verify(password: string, hash: string | undefined): Promise<boolean>;
  /** Whether `hash` was made with a lower cost than the configured one (rehash it on the next login). */
  needsRehash(hash: string): boolean;
}

export function assertAcceptablePassword(password: string): void {
  if ([...password].length < minPasswordLength) {
    throw new DomainValidationError(
      'PASSWORD_TOO_SHORT',
      `A password needs at least ${minPasswordLength} characters`,
    );
  }
  if (Buffer.byteLength(password, 'utf8') > maxPasswordBytes) {
    throw new DomainValidationError(
      'PASSWORD_TOO_LONG',
      `A password may have at most ${maxPasswordBytes} bytes`,
    );
  }
}

/**
 * A hasher at `cost`. @node-rs/bcrypt runs each hash and comparison on libuv's thread pool, so a login
 * never holds the event loop (bcryptjs, pure JS, held it in 100 ms slices that stack up under concurrent
 * logins: see docs/auth.md for the measurements).
 */
export function createPasswordHasher(cost: number): PasswordHasher {
  let dummyHash: Promise<string> | undefined;
  // Made once, lazily, at the same cost as real hashes so an unknown e-mail is not faster to refuse.
  const dummy = () => {
    dummyHash ??= bcryptHash('dummy password for unknown accounts', { cost });
    return dummyHash;
  };

  return {
    cost,
    async hash(password) {
      assertAcceptablePassword(password);
      return bcryptHash(password, { cost });
    },
    async verify(password, hash) {
      const target = hash ?? (await dummy());
      const matches = await bcryptVerify(password, target);
      // A password past 72 bytes can never be a stored one (we refuse to hash those), though bcrypt would
      // compare only its first 72 bytes; the comparison above still ran, so timing stays the same.
      return matches && hash !== undefined && Buffer.byteLength(password, 'utf8') <= maxPasswordBytes;
    },
    needsRehash(hash) {
      return parseOptions(hash).cost < cost;
    },
  };
}
