import { describe, expect, it } from 'vitest';
import { maxRetryDelayMs, retryDelayMs } from '../src/imports/feed-retry-delay';

const noJitter = () => 1;

describe('retry delay', () => {
  it('grows exponentially from the base delay', () => {
    expect([1, 2, 3].map((n) => retryDelayMs(n, 30_000, undefined, noJitter))).toEqual([
      30_000, 60_000, 120_000,
    ]);
  });

  it('jitters down by at most 20%', () => {
    expect(retryDelayMs(1, 30_000, undefined, () => 0)).toBe(24_000);
  });

  it('waits as long as Retry-After asks when that is longer, capped at an hour', () => {
    expect(retryDelayMs(1, 30_000, 120_000, noJitter)).toBe(120_000);
    expect(retryDelayMs(1, 30_000, 1_000, noJitter)).toBe(30_000);
    expect(retryDelayMs(1, 30_000, 10 * maxRetryDelayMs, noJitter)).toBe(maxRetryDelayMs);
  });
});
