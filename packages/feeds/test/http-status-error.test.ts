import { describe, expect, it } from 'vitest';
import { httpStatusError } from '../src/http-status-error';

const NOW = Date.parse('2026-01-01T12:00:00Z');

describe('httpStatusError', () => {
  it.each([
    [404, true],
    [410, true],
    [401, true],
    [403, true],
    [408, false],
    [429, false],
    [500, false],
    [503, false],
  ])('HTTP %i is permanent: %s', (status, permanent) => {
    const error = httpStatusError(status, undefined, NOW);
    expect(error.code).toBe('HTTP_STATUS');
    expect(error.httpStatus).toBe(status);
    expect(error.permanent).toBe(permanent);
  });

  it('keeps Retry-After only on 429 and 503', () => {
    expect(httpStatusError(429, '30', NOW).retryAfterMs).toBe(30_000);
    expect(httpStatusError(503, '30', NOW).retryAfterMs).toBe(30_000);
    expect(httpStatusError(500, '30', NOW).retryAfterMs).toBeUndefined();
  });
});
