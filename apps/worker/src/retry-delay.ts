/** How a job's retries spread out: each waits `factor` times the one before, jittered, and at most `maxMs`. */
export interface Backoff {
  factor: number;
  /** The delay is scaled by 0.8 + jitter x random(): 20% below the exponential at least, `jitter` above that at most. */
  jitter: number;
  maxMs: number;
}

/** Delay before retry number `retry` (1 = the first retry) from `baseMs`; `random` is Math.random but in tests. */
export type RetryDelay = (
  retry: number,
  baseMs: number,
  retryAfterMs?: number,
  random?: () => number,
) => number;

/**
 * The retry delay of one kind of job: `baseMs` x factor^(retry-1), jittered so the retries of many jobs failing
 * together do not land together; when the server sent Retry-After and asked for longer, its wish wins; never
 * past `maxMs`. The feed import and the webhooks each give their own numbers.
 */
export function retryDelay({ factor, jitter, maxMs }: Backoff): RetryDelay {
  return (retry, baseMs, retryAfterMs, random = Math.random) => {
    const exponential = baseMs * factor ** Math.max(0, retry - 1);
    const jittered = Math.round(exponential * (0.8 + jitter * random()));
    return Math.min(Math.max(jittered, retryAfterMs ?? 0), maxMs);
  };
}
