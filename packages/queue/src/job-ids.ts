import { createHash } from 'node:crypto';

/**
 * Deterministic job ids. BullMQ ignores an add() whose jobId already exists in the queue, so the
 * same publisher and hour slot always map to the same id: replicas, restarts or a repeated
 * fan-out cannot fetch one feed twice in one slot. BullMQ refuses ids containing ':' and
 * all-digit ids; these have neither (a uuid plus a fixed word and a 10-digit hour).
 */

/** The UTC hour a moment falls in, as yyyymmddhh (e.g. 2026112214). */
export function hourSlot(at: Date): string {
  return at.toISOString().slice(0, 13).replace(/[-T]/g, '');
}

/** Job id of a publisher's scheduled fetch in one hour slot: `fetch-<publisherId>-<yyyymmddhh>`. */
export function scheduledFetchJobId(publisherId: string, slot: string): string {
  return `fetch-${publisherId}-${slot}`;
}

/**
 * Deduplication id of a publisher's unscheduled fetches (first imports and manual re-triggers): while one is
 * queued or running, adding another joins it, so a publisher has at most one of them at a time however often
 * it saves a feed address or an administrator clicks "Import now". Not a jobId on purpose: a retained
 * completed job with the same jobId would make every later add() a silent no-op, whereas a deduplication id
 * only holds while its job is still waiting, delayed or running.
 */
export function publisherFetchDeduplicationId(publisherId: string): string {
  return `publisher-fetch-${publisherId}`;
}

/**
 * Job id of the first fetch after a publisher became importable with feed URL `feedUrl`:
 * `first-fetch-<publisherId>-<16 hex of the URL's sha256>`. A jobId on purpose: a double click on
 * Approve (or saving the same new URL twice) maps to the one job, even after it completed (while it is
 * kept: 7 days). A different URL gets its own first fetch.
 */
export function firstFetchJobId(publisherId: string, feedUrl: string): string {
  const urlHash = createHash('sha256').update(feedUrl).digest('hex').slice(0, 16);
  return `first-fetch-${publisherId}-${urlHash}`;
}
