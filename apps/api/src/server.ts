import { setTimeout as sleep } from 'node:timers/promises';
import { loadApiConfig, loadOrExit, readLocalEnvFile } from '@newsroom/config';
import { createDb, ensureAdministrator } from '@newsroom/domain';
import { createMetricsRegistry } from '@newsroom/metrics';
import { createFeedImportQueue, createRedisConnection } from '@newsroom/queue';
import { buildApp } from './app';
import { BatchedLogDestination } from './log-destination';
import { developmentLogStream, loggerOptions } from './logger';
import { createUploadSigner } from './storage/upload-signer';

// Thin shell: read config, create infrastructure, listen, close gracefully.
readLocalEnvFile();
const config = loadOrExit(() => loadApiConfig());
const db = createDb({
  connectionString: config.databaseUrl,
  max: config.databasePoolSize,
  applicationName: 'newsroom-api',
  timeouts: config.databaseTimeouts,
  preparedStatements: config.databasePreparedStatements,
});
// Client content reads only (delivery/replica/); the same size and bounds as the primary's pool.
const replicaDb = config.replica
  ? createDb({
      connectionString: config.replica.url,
      max: config.databasePoolSize,
      applicationName: 'newsroom-api-replica',
      timeouts: config.databaseTimeouts,
      preparedStatements: config.databasePreparedStatements,
    })
  : undefined;
const redis = createRedisConnection(config.redis, 'producer');
const feedImportQueue = createFeedImportQueue({ connection: redis, prefix: config.redis.queuePrefix });
const storage = config.storage && createUploadSigner(config.storage);
// Measured only when someone may read it: METRICS_TOKEN set.
const metricsRegistry = config.metrics.token ? createMetricsRegistry() : undefined;
const app = await buildApp(
  { config, db, replicaDb, redis, feedImportQueue, storage, metricsRegistry },
  {
    logger: loggerOptions(
      config.logLevel,
      (await developmentLogStream(config.env)) ?? new BatchedLogDestination(),
    ),
  },
);
feedImportQueue.on('error', (error) => app.log.warn({ err: error.message }, 'feed-import queue error'));

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  // SIGTERM is an orchestrator's stop: drain first, so its load balancer notices (/ready 503) and stops
  // sending before the listener closes. SIGINT is a developer's Ctrl-C: close at once.
  const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
  app.log.info({ signal, drainMs }, 'shutting down');
  const force = setTimeout(() => process.exit(1), drainMs + 10_000).unref();
  if (drainMs > 0) {
    app.drain.begin();
    await sleep(drainMs);
  }
  await app.close();
  await feedImportQueue.close();
  await Promise.allSettled([db.destroy(), replicaDb?.destroy(), redis.quit()]);
  clearTimeout(force);
  process.exit(0);
}
// A second Ctrl-C kills at once (the developer's way out); a repeated SIGTERM must not cut a drain short.
process.once('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  if (config.admin) {
    // Idempotent: creates the first administrator when missing, never touches an existing password.
    const { outcome } = await ensureAdministrator(db, app.passwords, config.admin);
    if (outcome === 'email-used-by-publisher')
      app.log.warn('ADMIN_EMAIL belongs to a publisher login; no administrator created');
    else app.log.info({ outcome }, 'first administrator from ADMIN_EMAIL');
  }
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  app.log.fatal({ err: error }, 'could not start');
  process.exit(1);
}
