import { explainLastError } from '../lib/feed-errors';
import { formatDateTime, formatRelative } from '../lib/format';

export interface FeedHealthFacts {
  feedUrl: string | null;
  lastFetchedAt: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  /** The last time an item was new (optional: not every API answer has it). */
  lastNewItemAt?: string | null | undefined;
}

/** One sentence on how the feed is doing. */
export function feedHealthSummary(feed: FeedHealthFacts): {
  tone: 'success' | 'warning' | 'error';
  text: string;
} {
  if (!feed.feedUrl) return { tone: 'warning', text: 'No feed address is set, so nothing is imported.' };
  if (feed.consecutiveFailures > 0) {
    const times = feed.consecutiveFailures === 1 ? 'once' : `${feed.consecutiveFailures} times in a row`;
    return { tone: 'error', text: `The last fetch failed (${times}).` };
  }
  if (!feed.lastFetchedAt) return { tone: 'warning', text: 'The feed has not been fetched yet.' };
  return {
    tone: 'success',
    text: `The feed is healthy: last fetched ${formatRelative(feed.lastFetchedAt)}.`,
  };
}

/** Feed health in words: the summary, when it was last fetched, the last error explained. */
export function FeedHealth({ feed }: { feed: FeedHealthFacts }) {
  const summary = feedHealthSummary(feed);
  const problem = feed.lastError ? explainLastError(feed.lastError) : null;
  return (
    <div className="stack">
      <div className={`alert alert-${summary.tone === 'error' ? 'error' : summary.tone}`}>{summary.text}</div>
      <dl className="dl">
        <dt>Feed address</dt>
        <dd>{feed.feedUrl ?? 'not set'}</dd>
        <dt>Last fetched</dt>
        <dd>
          {feed.lastFetchedAt
            ? `${formatDateTime(feed.lastFetchedAt)} (${formatRelative(feed.lastFetchedAt)})`
            : 'never'}
        </dd>
        {feed.lastNewItemAt !== undefined && (
          <>
            <dt>Last new item</dt>
            <dd>{feed.lastNewItemAt ? formatDateTime(feed.lastNewItemAt) : 'none yet'}</dd>
          </>
        )}
        <dt>Failures in a row</dt>
        <dd>{feed.consecutiveFailures}</dd>
        {problem && (
          <>
            <dt>Last error</dt>
            <dd>
              {problem.summary}
              {problem.detail && <span className="muted"> ({problem.detail})</span>}
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
