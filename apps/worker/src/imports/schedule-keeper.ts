import type { FeedImportQueue, RedisClient } from '@newsroom/queue';
import { feedImportSchedulerId } from '@newsroom/queue';
import type { Logger } from 'pino';

export interface ScheduleKeeper {
  /** Checks now (and re-creates the scheduler if it is missing); resolves when done, never rejects. */
  check(): Promise<void>;
  stop(): void;
}

/**
 * Keeps the import's job scheduler in Redis. It lives only there: a flushed Redis, or one replaced
 * by an empty server, loses it, and without it no import ever runs again. So the worker checks
 * whenever its connection becomes ready (a reconnect, likely to a restarted server) and every
 * `intervalMs` (a FLUSHALL keeps the connection up), and upserts the scheduler when it is missing.
 * Only when missing: re-upserting an existing one would not change it, but costs a write per check.
 */
export function keepImportSchedule(options: {
  queue: FeedImportQueue;
  connection: RedisClient;
  /** Upserts the scheduler (upsertImportScheduler with the configured pattern). */
  restore: () => Promise<void>;
  intervalMs: number;
  logger: Logger;
}): ScheduleKeeper {
  const { queue, connection, restore, intervalMs, logger } = options;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function checkOnce(): Promise<void> {
    try {
      if (await queue.getJobScheduler(feedImportSchedulerId)) return;
      if (stopped) return;
      await restore();
      logger.warn(
        { schedulerId: feedImportSchedulerId },
        'import job scheduler was missing from Redis (flushed or replaced): re-created',
      );
    } catch (error) {
      // Redis down: the next ready event or tick tries again.
      logger.warn({ err: (error as Error).message }, 'could not check the import job scheduler');
    }
  }

  // One check at a time: a ready event during a tick's check joins it.
  const check = () => {
    running ??= checkOnce().finally(() => {
      running = undefined;
    });
    return running;
  };
  const onReady = () => void check();
  connection.on('ready', onReady);
  const timer = setInterval(onReady, intervalMs);
  timer.unref();

  return {
    check,
    stop() {
      stopped = true;
      clearInterval(timer);
      connection.off('ready', onReady);
    },
  };
}
