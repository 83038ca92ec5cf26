import { type Db, findCdnPurgeBacklog } from '@newsroom/domain';
import { Counter, Gauge, Histogram, type Registry } from '@newsroom/metrics';

export interface PurgeMetrics {
  /** A batch purged: each key's lag from its change's transaction to the purge's success. */
  purged(provider: string, lagsSeconds: readonly number[]): void;
  failed(provider: string): void;
}

const lagBuckets = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300];

/**
 * The purge relay's metrics: `newsroom_worker_cdn_purge_lag_seconds` (change committed -> CDN purged, per key),
 * `newsroom_worker_cdn_purges_total` (keys by result) and, read at scrape time, the backlog's size and the
 * age of its oldest purge (`newsroom_worker_cdn_purge_backlog_seconds`: the lag readers may see right now).
 */
export function createPurgeMetrics(registry: Registry, db: Db, providers: readonly string[]): PurgeMetrics {
  const registers = [registry];
  const lag = new Histogram({
    name: 'newsroom_worker_cdn_purge_lag_seconds',
    help: 'Time from an article change (its transaction) to the CDN purge of a surrogate key it touched, by provider',
    labelNames: ['provider'],
    buckets: lagBuckets,
    registers,
  });
  const results = new Counter({
    name: 'newsroom_worker_cdn_purges_total',
    help: 'Surrogate keys purged (sent) or whose purge failed (retried later), by provider',
    labelNames: ['provider', 'result'],
    registers,
  });
  const backlog = new Gauge({
    name: 'newsroom_worker_cdn_purge_backlog',
    help: 'Pending purges (surrogate keys), by provider',
    labelNames: ['provider'],
    registers,
  });
  const oldest = new Gauge({
    name: 'newsroom_worker_cdn_purge_backlog_seconds',
    help: 'Age of the oldest pending purge, by provider (0: none pending)',
    labelNames: ['provider'],
    registers,
    async collect() {
      for (const provider of providers) {
        const { pending, oldestAgeSeconds } = await findCdnPurgeBacklog(db, provider);
        backlog.set({ provider }, pending);
        this.set({ provider }, oldestAgeSeconds);
      }
    },
  });
  void oldest;
  return {
    purged(provider, lagsSeconds) {
      for (const seconds of lagsSeconds) lag.observe({ provider }, seconds);
      results.inc({ provider, result: 'sent' }, lagsSeconds.length);
    },
    failed(provider) {
      results.inc({ provider, result: 'failed' });
    },
  };
}
