import { createHash, randomBytes } from 'node:crypto';

/** A one-time link token: 32 random bytes, base64url (43 characters); only its sha256 is stored. */
export function newOneTimeToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOneTimeToken(token) };
}

export function hashOneTimeToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
