import { availableParallelism } from 'node:os';
import bcrypt from 'bcryptjs';
import { Piscina } from 'piscina';
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
  /** Stops the worker threads. */
  close(): Promise<void>;
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
 * A hasher at `cost`. bcryptjs is pure JavaScript: on the main thread a cost-12 check holds the event
 * loop for ~100 ms slices that stack up under concurrent logins. Here each hash and comparison runs
 * on a small pool of worker threads, so other requests keep flowing while a login is checked.
 */
export function createPasswordHasher(cost: number): PasswordHasher {
  const pool = new Piscina({
    filename: new URL('./bcrypt.worker.mjs', import.meta.url).href,
    minThreads: 1,
    maxThreads: Math.max(2, availableParallelism()),
    idleTimeout: 60_000,
  });
  const run = <T>(name: 'hash' | 'compare', task: object): Promise<T> => pool.run(task, { name });

  let dummyHash: Promise<string> | undefined;
  // Made once, lazily, at the same cost as real hashes so an unknown e-mail is not faster to refuse.
  const dummy = () => {
    dummyHash ??= run<string>('hash', { password: 'dummy password for unknown accounts', cost });
    return dummyHash;
  };

  return {
    cost,
    async hash(password) {
      assertAcceptablePassword(password);
      return run<string>('hash', { password, cost });
    },
    async verify(password, hash) {
      const target = hash ?? (await dummy());
      const matches = await run<boolean>('compare', { password, hash: target });
      // A password past 72 bytes can never be a stored one (we refuse to hash those), though bcrypt would
      // compare only its first 72 bytes; the comparison above still ran, so timing stays the same.
      return matches && hash !== undefined && Buffer.byteLength(password, 'utf8') <= maxPasswordBytes;
    },
    needsRehash(hash) {
      try {
        return bcrypt.getRounds(hash) < cost;
      } catch {
        return true;
      }
    },
    close: () => pool.destroy(),
  };
}
