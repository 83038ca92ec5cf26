import { compactArticleRevisions, type Db } from '@newsroom/domain';
import type { Logger } from 'pino';
import { type Periodic, startPeriodic } from '../periodic';

/** How often queued revisions are turned into deltas (a run works off up to 2,000 articles). */
export const compactionIntervalMs = 60_000;

/**
 * The deferred half of recording a revision (docs/revisions.md, "Storage"): every minute, whole snapshots
 * below an article's newest revision become reverse deltas. Safe with any number of worker replicas (the
 * queue is claimed with FOR UPDATE SKIP LOCKED); a failed run is logged and the next one retries.
 */
export function startRevisionCompaction(options: {
  db: Db;
  logger?: Pick<Logger, 'info' | 'error'>;
  intervalMs?: number;
  now?: () => Date;
}): Periodic {
  const { db, logger, intervalMs = compactionIntervalMs, now = () => new Date() } = options;
  return startPeriodic(async () => {
    try {
      const { articles, revisions } = await compactArticleRevisions(db, { now: now() });
      if (revisions > 0) logger?.info({ articles, revisions }, 'revisions compacted into deltas');
    } catch (error) {
      logger?.error({ err: error }, 'revision compaction failed');
    }
  }, intervalMs);
}
