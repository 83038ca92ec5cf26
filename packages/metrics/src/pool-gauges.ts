import { Gauge, type Registry } from 'prom-client';

/** A connection pool's state at one instant (pg's Pool: totalCount, idleCount, waitingCount, options.max). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** Gauges of a database pool, read at scrape time (nothing is sampled in between). */
export function registerPoolGauges(registry: Registry, read: () => PoolStats): void {
  const gauge = (name: string, help: string, measure: (stats: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(measure(read()));
      },
    });
  gauge(
    'newsroom_db_pool_connections_in_use',
    'Postgres connections checked out of the pool',
    (s) => s.total - s.idle,
  );
  gauge('newsroom_db_pool_connections_idle', 'Open Postgres connections waiting in the pool', (s) => s.idle);
  gauge('newsroom_db_pool_waiting', 'Queries waiting for a free pool connection', (s) => s.waiting);
  gauge('newsroom_db_pool_connections_max', 'Size limit of the pool (DATABASE_POOL_SIZE)', (s) => s.max);
}
