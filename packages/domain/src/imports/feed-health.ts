/** How a publisher's feed is doing, in the words the dashboard shows. */
export interface FeedHealth {
  /** The last fetch: `never` fetched, `ok` (new items or not modified), or `failed` (the job gave up). */
  lastResult: 'never' | 'ok' | 'failed';
  /** When that last result happened. */
  lastResultAt: Date | null;
  lastFetchedAt: Date | null;
  lastFailedAt: Date | null;
  /** When the feed last brought a new article. */
  lastNewItemAt: Date | null;
  lastError: FeedErrorSummary | null;
  consecutiveFailures: number;
  /** New articles (by import time) in the last 24 hours and 7 days. */
  itemsLast24h: number;
  itemsLast7d: number;
  /** The usual time between new items (mean over the newest 20, by the items' own dates), or null. */
  meanIntervalSeconds: number | null;
  /** "Gone quiet": no new item for 3 x the usual interval, and at least a day. */
  quiet: boolean;
  /** Set when the feed was paused after too many failures in a row (not fetched until resumed). */
  paused: { at: Date; reason: string } | null;
  /** Set when the feed's server said it is gone for good (410): the feed is no longer fetched. */
  gone: { since: Date; message: string } | null;
}

/** The last error: its code, a sentence for people, and the fetcher's own text. */
export interface FeedErrorSummary {
  code: string;
  message: string;
  detail: string;
}

// Keyed by the feeds package's FeedError codes; the fetch job stores "<CODE>: <message>".
const explanations: Record<string, string> = {
  INVALID_URL: 'The feed address is not a valid http(s) address.',
  REFUSED_ADDRESS: 'The feed address points to a private or local network, which the import never fetches.',
  TOO_MANY_REDIRECTS: 'The feed address redirects too many times.',
  HTTP_STATUS: "The feed's server answered with an error instead of the feed.",
  TIMEOUT: "The feed's server did not answer in time.",
  TOO_LARGE: 'The feed is larger than the import accepts.',
  NETWORK: "The feed's server could not be reached.",
  BAD_RESPONSE: "The feed's server sent a response that could not be read.",
  NOT_A_FEED: 'The address answered, but not with an RSS, Atom or JSON feed.',
  ABORTED: 'The fetch was stopped before it finished.',
  FEED_GONE: feedGoneMessage(),
};

function feedGoneMessage(): string {
  return "The feed's server says the feed has been removed for good (HTTP 410 Gone), so it is no longer fetched. Save a new feed address (or ask an administrator to import it again once it is back) to resume.";
}

/** Splits a stored fetch error ("CODE: message") into code, explanation and detail. */
export function summariseFeedError(stored: string): FeedErrorSummary {
  const match = /^([A-Z][A-Z_]*): ?([\s\S]*)$/.exec(stored);
  const code = match?.[1] ?? 'UNKNOWN';
  const detail = match ? (match[2] ?? '') : stored;
  return { code, message: explanations[code] ?? 'The last fetch of the feed failed.', detail };
}

const day = 24 * 60 * 60 * 1000;
/** A feed is quiet after this many usual intervals without a new item (and at least a day). */
export const quietAfterIntervals = 3;

/**
 * Whether a feed has gone quiet at `now`: it has a usual interval (two items or more) and its last
 * new item is older than 3 of those intervals and than a day.
 */
export function isQuiet(lastNewItemAt: Date | null, meanIntervalSeconds: number | null, now: Date): boolean {
  if (lastNewItemAt === null || meanIntervalSeconds === null) return false;
  const silence = now.getTime() - lastNewItemAt.getTime();
  return silence > Math.max(quietAfterIntervals * meanIntervalSeconds * 1000, day);
}

/** The fetch state and item statistics a FeedHealth is built from. */
export interface FeedHealthState {
  lastFetchedAt: Date | null;
  lastFailedAt: Date | null;
  lastNewItemAt: Date | null;
  lastError: string | null;
  consecutiveFailures: number;
  itemsLast24h?: number;
  itemsLast7d?: number;
  meanIntervalSeconds?: number | null;
  feedPausedAt?: Date | null;
  feedPauseReason?: string | null;
  feedGoneAt?: Date | null;
}

export function toFeedHealth(state: FeedHealthState, now: Date = new Date()): FeedHealth {
  const failed = state.lastError !== null || state.consecutiveFailures > 0;
  const lastResult = failed ? 'failed' : state.lastFetchedAt ? 'ok' : 'never';
  const meanIntervalSeconds = state.meanIntervalSeconds ?? null;
  return {
    lastResult,
    lastResultAt: failed ? state.lastFailedAt : state.lastFetchedAt,
    lastFetchedAt: state.lastFetchedAt,
    lastFailedAt: state.lastFailedAt,
    lastNewItemAt: state.lastNewItemAt,
    lastError: state.lastError === null ? null : summariseFeedError(state.lastError),
    consecutiveFailures: state.consecutiveFailures,
    itemsLast24h: state.itemsLast24h ?? 0,
    itemsLast7d: state.itemsLast7d ?? 0,
    meanIntervalSeconds,
    quiet: isQuiet(state.lastNewItemAt, meanIntervalSeconds, now),
    paused: state.feedPausedAt
      ? { at: state.feedPausedAt, reason: state.feedPauseReason ?? 'Too many failed fetches in a row.' }
      : null,
    gone: state.feedGoneAt ? { since: state.feedGoneAt, message: feedGoneMessage() } : null,
  };
}
