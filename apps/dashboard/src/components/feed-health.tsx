import type { ReactNode } from 'react';
import type { FeedHealth as FeedHealthFacts } from '../api/publishers';
import { formatDateTime, formatDuration, formatRelative } from '../lib/format';

const when = (iso: string | null) => (iso ? `${formatDateTime(iso)} (${formatRelative(iso)})` : 'never');

/** One sentence on how the feed is doing. */
export function feedHealthSummary(
  feedUrl: string | null,
  health: FeedHealthFacts,
): { tone: 'success' | 'warning' | 'error'; text: string } {
  if (!feedUrl) return { tone: 'warning', text: 'No feed address is set, so nothing is imported.' };
  if (health.gone) return { tone: 'error', text: health.gone.message };
  if (health.paused) {
    return {
      tone: 'error',
      text: `The feed is paused since ${formatDateTime(health.paused.at)} and is not fetched: ${health.paused.reason} Resume it once the feed works again.`,
    };
  }
  if (health.lastResult === 'failed') {
    const times = health.consecutiveFailures > 1 ? ` (${health.consecutiveFailures} times in a row)` : '';
    return {
      tone: 'error',
      text: `The last fetch failed${times}: ${health.lastError?.message ?? 'the feed could not be read.'}`,
    };
  }
  if (health.lastResult === 'never') return { tone: 'warning', text: 'The feed has not been fetched yet.' };
  if (health.quiet) {
    const usually = health.meanIntervalSeconds
      ? ` (it usually brings one every ${formatDuration(health.meanIntervalSeconds)})`
      : '';
    return {
      tone: 'warning',
      text: `The feed has gone quiet: no new item ${formatRelative(health.lastNewItemAt)}${usually}.`,
    };
  }
  return {
    tone: 'success',
    text: `The feed is healthy: last fetched ${formatRelative(health.lastFetchedAt)}.`,
  };
}

/**
 * Feed health in words: a summary, when it was last fetched, new items lately, the usual interval, the
 * last error explained. `resume` (a button) is shown under the summary while the feed is paused.
 */
export function FeedHealth({
  feedUrl,
  health,
  resume,
}: {
  feedUrl: string | null;
  health: FeedHealthFacts;
  resume?: ReactNode;
}) {
  const summary = feedHealthSummary(feedUrl, health);
  return (
    <div className="stack">
      <div className={`alert alert-${summary.tone}`} role={health.paused ? 'alert' : undefined}>
        {summary.text}
      </div>
      {health.paused && resume && <div className="row">{resume}</div>}
      <dl className="dl">
        <dt>Feed address</dt>
        <dd className="break-anywhere">{feedUrl ?? 'not set'}</dd>
        <dt>Last fetched</dt>
        <dd>{when(health.lastFetchedAt)}</dd>
        <dt>Last new item</dt>
        <dd>{health.lastNewItemAt ? when(health.lastNewItemAt) : 'none yet'}</dd>
        <dt>New items</dt>
        <dd>
          {health.itemsLast24h} in the last 24 hours, {health.itemsLast7d} in the last 7 days
        </dd>
        <dt>Usual interval</dt>
        <dd>
          {health.meanIntervalSeconds === null
            ? 'not known yet'
            : `one new item every ${formatDuration(health.meanIntervalSeconds)}`}
        </dd>
        <dt>Failures in a row</dt>
        <dd>{health.consecutiveFailures}</dd>
        {health.lastError && (
          <>
            <dt>Last error</dt>
            <dd>
              {health.lastError.message}
              {health.lastError.detail && <span className="muted"> ({health.lastError.detail})</span>}
              {health.lastFailedAt && <span className="muted"> · {formatDateTime(health.lastFailedAt)}</span>}
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
