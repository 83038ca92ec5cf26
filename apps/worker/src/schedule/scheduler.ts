import {
  type Clock,
  type Db,
  nextScheduledDueAt,
  runDueScheduledActions,
  systemClock,
} from '@newsroom/domain';
import type { Logger } from 'pino';

// The scheduled-publishing wing. Postgres is the only record: each turn asks when the next action is due (one
// indexed query), sleeps until then or at most `pollMs`, and runs what is due through the domain, which claims
// rows with FOR UPDATE SKIP LOCKED, so any number of replicas run it and none runs an action twice. Nothing
// lives in Redis or memory: a killed worker's claimed batch rolls back and is claimed again; actions that fell
// due while everything was down run at the first turn after start-up, their lateness recorded.

export interface SchedulerOptions {
  db: Db;
  logger: Pick<Logger, 'info' | 'error'>;
  /** Longest sleep between two looks (an action scheduled meanwhile is seen within this). */
  pollMs: number;
  batchSize: number;
  /** Batches run at once, each over its own share of the articles (default 1). */
  lanes?: number;
  clock?: Clock;
}

export interface Scheduler {
  /** Wakes the loop at once (tests, or a hint that something new is due). */
  wake(): void;
  /** Stops after the turn in progress (its transaction commits or rolls back). */
  close(): Promise<void>;
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const { db, logger, pollMs, batchSize, lanes = 1, clock = systemClock } = options;
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wakeUp = resolve;
      timer = setTimeout(resolve, Math.max(0, ms));
    }).finally(() => {
      clearTimeout(timer);
      wakeUp = undefined;
    });

  async function turn(): Promise<number> {
    const next = await nextScheduledDueAt(db);
    const now = clock.now().getTime();
    if (next !== null && next.getTime() <= now) {
      const result = await runDueScheduledActions(db, clock, { batchSize, lanes });
      if (result.done + result.failed > 0) {
        logger.info(result, 'scheduled actions ran');
        return 0;
      }
      // Due but claimed by another replica (its rows are locked): look again shortly, not in a tight loop.
      return Math.min(pollMs, 100);
    }
    return next === null ? pollMs : Math.min(pollMs, next.getTime() - now);
  }

  const loop = (async () => {
    while (!stopped) {
      let wait: number;
      try {
        wait = await turn();
      } catch (error) {
        logger.error({ err: error }, 'scheduler turn failed; retrying');
        wait = pollMs;
      }
      if (!stopped && wait > 0) await sleep(wait);
    }
  })();

  return {
    wake: () => wakeUp?.(),
    async close() {
      stopped = true;
      wakeUp?.();
      await loop;
    },
  };
}
