// The metric types, so the apps build their own metrics on one prom-client (this package's).
export { Counter, Gauge, Histogram, type Registry } from 'prom-client';
export { bearerTokenMatches } from './bearer-token';
export { type MetricsServer, type MetricsServerOptions, startMetricsServer } from './metrics-server';
export { type PoolStats, registerPoolGauges } from './pool-gauges';
export { createMetricsRegistry } from './registry';
