import { describe, expect, it } from 'vitest';
import { bearerTokenMatches } from '../src';

const token = 'metrics-token-0123456789';

describe('bearerTokenMatches', () => {
  it('accepts exactly "Bearer <token>" (scheme case-insensitive)', () => {
    expect(bearerTokenMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerTokenMatches(`bearer ${token}`, token)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['the bare token', token],
    ['another scheme', `Basic ${token}`],
    ['a prefix of the token', `Bearer ${token.slice(0, -1)}`],
    ['a longer token', `Bearer ${token}0`],
    ['a wrong token', 'Bearer wrong-token-0123456789'],
    ['two tokens', `Bearer ${token} ${token}`],
    ['an empty token', 'Bearer '],
  ])('refuses %s', (_, header) => {
    expect(bearerTokenMatches(header, token)).toBe(false);
  });
});
