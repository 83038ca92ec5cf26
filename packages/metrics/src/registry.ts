import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A fresh registry holding prom-client's default process metrics (CPU, memory, heap, event-loop lag, GC,
 * handles). One per app instance, made by its composition root: nothing is registered globally, so tests
 * that build several apps in one process keep their counts apart.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
