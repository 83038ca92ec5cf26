/** How a job's retries spread out: each waits `factor` times the one before, jittered, and at most `maxMs`. */
export interface Backoff {
  factor: number;
  /** The delay is scaled by 0.8 + jitter x random(): 20% below the exponential at least, `jitter` above that at most. */
  jitter: number;
  maxMs: number;
}

/**
 * Delay before retry number `retry` (1 = the first retry): `baseMs` x factor^(retry-1), jittered so the
 * retries of many jobs failing together do not land together; when the server sent Retry-After and asked
 * for longer, its wish wins; never past `maxMs`. The feed import and the webhooks each give their own numbers.
 */
export function backoffDelayMs(
  retry: number,
  baseMs: number,
  backoff: Backoff,
  retryAfterMs: number | undefined,
  random: () => number,
): number {
  const exponential = baseMs * backoff.factor ** Math.max(0, retry - 1);
  const jittered = Math.round(exponential * (0.8 + backoff.jitter * random()));
  return Math.min(Math.max(jittered, retryAfterMs ?? 0), backoff.maxMs);
}
