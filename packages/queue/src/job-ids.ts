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
 * Deduplication id of a manual re-trigger. Not a jobId on purpose: a retained completed job
 * with the same jobId would make every later add() a silent no-op, whereas a deduplication id
 * only holds while its job is still waiting, delayed or running.
 */
export function manualFetchDeduplicationId(publisherId: string): string {
  return `manual-fetch-${publisherId}`;
}
