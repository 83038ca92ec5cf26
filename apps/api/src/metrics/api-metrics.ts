import { type Db, type DbPoolStats, poolStatsOf } from '@newsroom/domain';
import { Counter, Gauge, Histogram, type Registry, registerPoolGauges } from '@newsroom/metrics';
import type { CacheLookupObserver } from './cache-lookup';

/** The API's own metrics, on the registry its composition root made. Labels are bounded sets only. */
export interface ApiMetrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'route' | 'status_class'>;
  requestsInFlight: Gauge;
  tooManyRequests: Counter<'route' | 'code'>;
  loginLockouts: Counter;
  clientCacheLookups: Counter<'cache' | 'result' | 'site'>;
  clientContentReads: Counter<'route'>;
  replicaUp: Gauge;
  replicaLagBytes: Gauge;
}

// Cached client reads answer in well under a millisecond; slow dashboard reports take seconds.
const durationBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createApiMetrics(registry: Registry, db: Db): ApiMetrics {
  const registers = [registry];
  // Kysely handles not made by createDb have no pool to read; the pool gauges are left out then.
  if (poolStatsOf(db)) registerPoolGauges(registry, () => poolStatsOf(db) as DbPoolStats);
  return {
    registry,
    requestDuration: new Histogram({
      name: 'newsroom_http_request_duration_seconds',
      help: 'Time from request received to response sent, by route pattern and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: durationBuckets,
      registers,
    }),
    requestsInFlight: new Gauge({
      name: 'newsroom_http_requests_in_flight',
      help: 'Requests received whose response has not ended yet',
      registers,
    }),
    tooManyRequests: new Counter({
      name: 'newsroom_http_too_many_requests_total',
      help: '429 responses (login lockouts and rate limits), by route pattern and error code',
      labelNames: ['route', 'code'],
      registers,
    }),
    loginLockouts: new Counter({
      name: 'newsroom_login_lockouts_total',
      help: 'Login attempts refused with 429 because the e-mail or address is locked out',
      registers,
    }),
    clientCacheLookups: new Counter({
      name: 'newsroom_client_cache_lookups_total',
      help: 'Lookups in the client read caches: hit (no load of its own), miss (loaded), bypass (cache off or notifications down); responses by site',
      labelNames: ['cache', 'result', 'site'],
      registers,
    }),
    clientContentReads: new Counter({
      name: 'newsroom_client_content_reads_total',
      help: 'Client content reads that reached a database, by where they went: replica, or primary_lagging, primary_replica_down, primary_position_unknown, primary_recovery_conflict (only with DATABASE_REPLICA_URL)',
      labelNames: ['route'],
      registers,
    }),
    replicaUp: new Gauge({
      name: 'newsroom_db_replica_up',
      help: '1 while the read replica answers its probes (client content reads may go to it), 0 while they go to the primary',
      registers,
    }),
    replicaLagBytes: new Gauge({
      name: 'newsroom_db_replica_lag_bytes',
      help: 'WAL bytes the primary had written past the replica replay position, at the last probe',
      registers,
    }),
  };
}

/**
 * A callback that counts one cache's lookups, or undefined when metrics are off. `bySite`: also labelled with
 * the lookup's site (its id; `network` for network-wide content), one series per site and result.
 */
export function cacheLookupCounter(
  metrics: ApiMetrics | undefined,
  cache: string,
  { bySite = false }: { bySite?: boolean } = {},
): CacheLookupObserver | undefined {
  if (!metrics) return undefined;
  const results = ['hit', 'miss', 'bypass'] as const;
  // Children are made once: a labelled inc() per lookup would hash the labels every time.
  const childrenOf = (site?: string) =>
    Object.fromEntries(
      results.map((result) => [
        result,
        site === undefined
          ? metrics.clientCacheLookups.labels({ cache, result })
          : metrics.clientCacheLookups.labels({ cache, result, site }),
      ]),
    ) as Record<(typeof results)[number], ReturnType<typeof metrics.clientCacheLookups.labels>>;
  const plain = childrenOf();
  if (!bySite) return (result, count = 1) => plain[result].inc(count);
  const perSite = new Map<string, typeof plain>();
  return (result, count = 1, scope) => {
    const site = scope === undefined ? undefined : (scope ?? 'network');
    if (site === undefined) return plain[result].inc(count);
    let children = perSite.get(site);
    if (!children) {
      children = childrenOf(site);
      perSite.set(site, children);
    }
    children[result].inc(count);
  };
}
