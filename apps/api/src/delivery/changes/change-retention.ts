import { pruneArticleChanges } from '@newsroom/domain';
import type { FastifyInstance } from 'fastify';

const dayMs = 86_400_000;
/** How often each API replica prunes; replicas prune the same rows harmlessly (see pruneArticleChanges). */
const pruneEveryMs = 60 * 60_000;

/**
 * Housekeeping of the change feed's outbox: every hour (first a minute after start), removes changes older
 * than the configured retention, in bounded batches. A failure is logged and retried at the next turn.
 */
export function scheduleChangeRetention(app: FastifyInstance): void {
  const prune = async () => {
    const olderThan = new Date(Date.now() - app.config.changeFeed.retentionDays * dayMs);
    try {
      const removed = await pruneArticleChanges(app.db, olderThan);
      if (removed > 0) app.log.info({ removed }, 'change feed: pruned changes past retention');
    } catch (error) {
      app.log.warn({ err: error }, 'change feed: pruning failed, retried at the next turn');
    }
  };
  let timer: NodeJS.Timeout | null = null;
  const next = (delayMs: number) => {
    timer = setTimeout(() => void prune().finally(() => timer && next(pruneEveryMs)), delayMs);
    timer.unref();
  };
  app.addHook('onReady', async () => next(60_000));
  app.addHook('onClose', async () => {
    if (timer) clearTimeout(timer);
    timer = null;
  });
}
