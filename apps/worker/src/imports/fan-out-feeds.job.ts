import { dueBy, listImportablePublishers } from '@newsroom/domain';
import { enqueueScheduledFetches, type FeedImportJob, hourSlot } from '@newsroom/queue';
import type { JobDeps } from './job-deps';

export interface FanOutResult {
  slot: string;
  publishers: number;
}

/**
 * The scheduler's job: one fetch job per approved, enabled publisher with a feed URL that is due (not
 * gone, not held back by its server's refresh hints: see imports/fetch-schedule.ts in the domain). The hour slot
 * comes from the time the scheduler meant this run for (not when a worker picked it up), and the
 * fetch job ids are deterministic per publisher and slot: a repeated fan-out, a restart or another
 * replica adds nothing new in the same slot.
 */
export async function fanOutFeedsJob(
  job: FeedImportJob<'fan-out-feeds'>,
  deps: JobDeps,
): Promise<FanOutResult> {
  const slotTime = new Date(job.opts.prevMillis ?? job.timestamp);
  const slot = hourSlot(slotTime);
  // Feeds marked gone (410) and feeds whose server hints ask us to wait longer are left out.
  const publishers = await listImportablePublishers(deps.db, dueBy(slotTime));
  await enqueueScheduledFetches(deps.queue, publishers, slot);
  deps.logger.info({ slot, publishers: publishers.length }, 'feed import fanned out');
  return { slot, publishers: publishers.length };
}
