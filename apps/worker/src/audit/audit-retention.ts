import type { WorkerConfig } from '@newsroom/config';
import { type Db, pruneAuditLog } from '@newsroom/domain';
import type { Logger } from 'pino';

/** How often the audit log is pruned, and how much one run may delete (the next run goes on). */
export const auditPruneEveryMs = 60 * 60 * 1000;
const batchSize = 1_000;
const maxBatchesPerRun = 20;

export interface AuditRetention {
  /** Prunes now (joining a run in progress); resolves with the rows removed. */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The audit wing: with AUDIT_RETENTION_DAYS set, deletes older audit events hourly, in bounded batches through
 * the database's one pruning path (which records the chain's new start). Unset: never started, every event kept.
 */
export function startAuditRetention(deps: {
  config: Pick<WorkerConfig, 'audit'>;
  db: Db;
  logger: Logger;
  intervalMs?: number;
  now?: () => Date;
}): AuditRetention | undefined {
  const { retentionDays } = deps.config.audit;
  if (retentionDays === null) return undefined;
  let running: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = (): Promise<number> => {
    running ??= pruneAuditLog(deps.db, {
      retentionDays,
      now: deps.now?.(),
      batchSize,
      maxBatches: maxBatchesPerRun,
    })
      .then((removed) => {
        if (removed > 0) deps.logger.info({ removed, retentionDays }, 'old audit events pruned');
        return removed;
      })
      .catch((error: unknown) => {
        deps.logger.warn({ err: (error as Error).message }, 'audit pruning failed; next run retries');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(run, deps.intervalMs ?? auditPruneEveryMs);
      });
    return running;
  };
  timer = setTimeout(run, 0);
  return {
    runNow: () => {
      clearTimeout(timer);
      return run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
