import type { MinimalJob } from 'bullmq';
import { retryDelay } from '../retry-delay';

/** The longest a retry waits, whatever a Retry-After header asks: the next hourly run takes over then. */
export const maxRetryDelayMs = 60 * 60 * 1000;

/**
 * Delay before retry number `attemptsMade` (1 = first retry): exponential from `baseDelayMs`
 * (base, 2x, 4x, ...) with up to 20% jitter so retries of many feeds do not land together;
 * when the server sent Retry-After (429/503) and asked for longer, its wish wins. Capped at an hour.
 */
export const retryDelayMs = retryDelay({ factor: 2, jitter: 0.2, maxMs: maxRetryDelayMs });

/** BullMQ backoff strategy for jobs whose backoff type is `feed-retry`. */
export function feedRetryBackoff(defaultBaseDelayMs?: number) {
  return (attemptsMade: number, _type?: string, error?: Error, job?: MinimalJob): number => {
    const configured = (job?.opts.backoff as { delay?: number } | undefined)?.delay;
    const base = defaultBaseDelayMs ?? configured ?? 30_000;
    const retryAfter = (error as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
    return retryDelayMs(attemptsMade, base, typeof retryAfter === 'number' ? retryAfter : undefined);
  };
}
