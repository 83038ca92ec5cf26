import { type Db, type DbPoolStats, poolStatsOf } from '@newsroom/domain';
import { Counter, Gauge, Histogram, type Registry, registerPoolGauges } from '@newsroom/metrics';
import type { FeedImportQueue } from '@newsroom/queue';
import { withTimeout } from '../with-timeout';
import { handledJobNames } from './dispatcher';
import type { ImportObserver } from './import-observer';

/** The queue states reported by newsroom_worker_queue_jobs. */
export const queueStates = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'completed',
  'failed',
] as const;

/** A scrape waits this long for Redis' job counts; past it the queue gauges are left out of that scrape. */
export const queueCountsTimeoutMs = 2_000;

// A fetch is bounded by its 20 s deadline; news feeds usually take well under a second.
const fetchBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30];

export interface WorkerMetrics {
  observer: ImportObserver;
  /** Counts a job's end: completed, failed for good, or failed with a retry to come. */
  jobFinished(name: string, result: 'completed' | 'failed' | 'retried'): void;
}

/**
 * The worker's metrics on the registry its composition root made. Queue depth and pool gauges are read at
 * scrape time; a Redis that does not answer in time leaves the queue gauges out and sets
 * newsroom_worker_queue_up to 0 instead of holding the scrape. Labels are bounded sets only.
 */
export function createWorkerMetrics(
  registry: Registry,
  { db, queue, onError }: { db: Db; queue: FeedImportQueue; onError?: (error: unknown) => void },
): WorkerMetrics {
  const registers = [registry];
  if (poolStatsOf(db)) registerPoolGauges(registry, () => poolStatsOf(db) as DbPoolStats);

  const jobs = new Counter({
    name: 'newsroom_worker_jobs_total',
    help: 'Jobs this worker finished, by job name and result (completed, failed for good, retried)',
    labelNames: ['name', 'result'],
    registers,
  });
  const fetchDuration = new Histogram({
    name: 'newsroom_worker_feed_fetch_duration_seconds',
    help: 'Time to fetch a feed (connect to last byte), by outcome (fetched, not_modified, error)',
    labelNames: ['outcome'],
    buckets: fetchBuckets,
    registers,
  });
  const items = new Counter({
    name: 'newsroom_worker_feed_items_total',
    help: 'Feed items of imports: inserted as articles, skipped (guid already imported), filtered (refused by the publisher rules) or waiting (over the per-fetch cap)',
    labelNames: ['result'],
    registers,
  });
  const feedErrors = new Counter({
    name: 'newsroom_worker_feed_errors_total',
    help: 'Feed fetch or parse failures, by FeedError code (every attempt counts)',
    labelNames: ['code'],
    registers,
  });
  // One read of the counts serves both gauges of a scrape (prom-client collects them concurrently).
  let reading: Promise<Record<string, number> | null> | undefined;
  const readCounts = () => {
    reading ??= withTimeout(
      queue.getJobCounts(...queueStates),
      queueCountsTimeoutMs,
      `no answer from Redis within ${queueCountsTimeoutMs} ms`,
    )
      .catch((error: unknown) => {
        onError?.(error);
        return null;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  new Gauge({
    name: 'newsroom_worker_queue_jobs',
    help: 'Jobs in the feed-import queue by state, read from Redis at scrape time',
    labelNames: ['state'],
    registers,
    async collect() {
      const counts = await readCounts();
      this.reset();
      if (counts) for (const state of queueStates) this.set({ state }, counts[state] ?? 0);
    },
  });
  new Gauge({
    name: 'newsroom_worker_queue_up',
    help: '1 when this scrape read the queue counts from Redis in time, else 0 (then the queue gauges are left out)',
    registers,
    async collect() {
      this.set((await readCounts()) ? 1 : 0);
    },
  });

  const knownJobs = new Set<string>(handledJobNames);
  const inserted = items.labels('inserted');
  const skipped = items.labels('skipped');
  const filtered = items.labels('filtered');
  const waiting = items.labels('waiting');
  return {
    observer: {
      fetchDone: (outcome, seconds) => fetchDuration.observe({ outcome }, seconds),
      itemsImported(counts) {
        inserted.inc(counts.inserted);
        skipped.inc(counts.skipped);
        filtered.inc(counts.filtered ?? 0);
        waiting.inc(counts.waiting ?? 0);
      },
      feedError: (code) => feedErrors.inc({ code }),
    },
    // A job added by hand under another name is counted as 'other': names stay a bounded set.
    jobFinished: (name, result) => jobs.inc({ name: knownJobs.has(name) ? name : 'other', result }),
  };
}
