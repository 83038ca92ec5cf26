import { type Db, thinOldDraftRevisions } from '@newsroom/domain';
import type { Logger } from 'pino';

/** How often old draft revisions are thinned: hourly is plenty for a retention counted in days. */
export const thinningIntervalMs = 60 * 60_000;

/**
 * Thins old draft revisions (docs/revisions.md) every hour, starting a minute after boot; a run takes at
 * most 500 articles, so a backlog is worked off run by run. Never two runs at once; close() waits for one.
 */
export function startRevisionThinning(options: {
  db: Db;
  retentionMs: number;
  logger?: Pick<Logger, 'info' | 'error'>;
  intervalMs?: number;
  now?: () => Date;
}) {
  const { db, retentionMs, logger, intervalMs = thinningIntervalMs, now = () => new Date() } = options;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    running ??= thinOldDraftRevisions(db, new Date(now().getTime() - retentionMs))
      .then(({ articles, removed }) => {
        if (removed > 0) logger?.info({ articles, removed }, 'old draft revisions thinned');
      })
      .catch((error: unknown) => logger?.error({ err: error }, 'revision thinning failed'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const first = setTimeout(run, Math.min(60_000, intervalMs));
  const timer = setInterval(() => {
    if (!stopped) void run();
  }, intervalMs);
  first.unref();
  timer.unref();
  return {
    runNow: run,
    async close() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
