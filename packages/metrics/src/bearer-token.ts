import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Whether an Authorization header carries `Bearer <token>`. Compared in constant time: both sides are
 * hashed first, so neither the content nor the length of the expected token leaks through timing.
 */
export function bearerTokenMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  const same = timingSafeEqual(digest(given ?? ''), digest(token));
  return given !== undefined && same;
}
