import { retryDelay } from '../retry-delay';

/** The longest wait between two attempts, whatever a Retry-After asks. */
export const maxWebhookRetryDelayMs = 12 * 60 * 60 * 1000;

/**
 * Delay before retry number `retry` (1 = the first retry): `baseMs` x 4^(retry-1) with ±20% jitter (so the
 * retries of many deliveries failing together spread out), at least what a Retry-After asked, at most 12 h.
 * With the defaults (30 s base, 8 attempts) the attempts span about a day: 0, 30 s, 2.5 min, 10.5 min,
 * 43 min, 2.8 h, 11.4 h, 23.4 h.
 */
export const webhookRetryDelayMs = retryDelay({ factor: 4, jitter: 0.4, maxMs: maxWebhookRetryDelayMs });
