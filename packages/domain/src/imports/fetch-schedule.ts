/** The hourly floor: the fan-out fetches a feed at most once an hour whatever a server asks. */
export const hourlyFloorSeconds = 3_600;
/** A server hint longer than this is cut to it, so a bad header cannot stop a feed for weeks. */
export const maxRefreshHintSeconds = 24 * 3_600;
/**
 * The fan-out counts a publisher due when its next_fetch_after falls before the slot's start plus this
 * grace: a fetch made a few minutes into one slot with a two-hour hint is due again at the start of the
 * slot two hours on, not three.
 */
export const dueGraceMs = 10 * 60_000;

/**
 * When the hourly run should fetch a feed next, from its server's freshness hint (Cache-Control max-age,
 * Expires) and the feed's own (ttl, sy:updatePeriod/Frequency): the longer one, capped at 24 hours. Hints
 * can only make us fetch less often: one of an hour or less, or none, gives null (every hourly run).
 */
export function nextFetchAfter(
  fetchedAt: Date,
  headerSeconds: number | null | undefined,
  feedSeconds: number | null | undefined,
): Date | null {
  const hint = Math.max(headerSeconds ?? 0, feedSeconds ?? 0);
  if (hint <= hourlyFloorSeconds) return null;
  return new Date(fetchedAt.getTime() + Math.min(hint, maxRefreshHintSeconds) * 1000);
}

/** The latest next_fetch_after a publisher may have to be fetched in the hourly slot starting at `slotStart`. */
export function dueBy(slotStart: Date): Date {
  return new Date(slotStart.getTime() + dueGraceMs);
}
