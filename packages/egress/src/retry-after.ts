// A server asking for more than a day is either broken or hostile; callers have their own maximum anyway.
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Parses a Retry-After header (delta-seconds or HTTP-date) into milliseconds from `now`.
 * Returns undefined when the header is missing or unparseable; dates in the past give 0.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  // Date.parse alone would accept bare numbers like "1.5" as years; require something date-like.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}
