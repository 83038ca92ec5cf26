import type { Db } from '../db/create-db';
import type { PasswordHasher } from './password-hasher';
import type { User } from './user';
import { findLoginByEmail, updateUserPasswordHash } from './user.repository';

export interface Credentials {
  email: string;
  password: string;
}

/**
 * The user these credentials log in, or undefined. Every refusal (unknown e-mail, wrong password,
 * disabled login or publisher) costs one bcrypt comparison and looks the same to the caller.
 */
export async function verifyCredentials(
  db: Db,
  hasher: PasswordHasher,
  { email, password }: Credentials,
): Promise<User | undefined> {
  const login = await findLoginByEmail(db, email.trim());
  const matches = await hasher.verify(password, login?.passwordHash);
  if (!login || !matches || !login.active) return undefined;
  // Hashes made at a lower cost (an older setting) are upgraded while we hold the plain password.
  if (hasher.needsRehash(login.passwordHash)) {
    await updateUserPasswordHash(db, login.user.id, await hasher.hash(password));
  }
  return login.user;
}
