import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../src/retry-after';

const NOW = Date.parse('2026-01-01T12:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
  });

  it('reads an HTTP-date relative to now', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 12:05:00 GMT', NOW)).toBe(300_000);
  });

  it('gives 0 for dates in the past and caps absurd delays at a day', () => {
    expect(parseRetryAfter('Wed, 31 Dec 2025 12:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('99999999', NOW)).toBe(24 * 60 * 60 * 1000);
  });

  it('ignores missing or garbage values', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('1.5', NOW)).toBeUndefined();
  });
});
