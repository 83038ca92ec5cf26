import { loadOrExit, loadWorkerConfig, readLocalEnvFile } from '@newsroom/config';
import { createDb } from '@newsroom/domain';
import { createMetricsRegistry, type MetricsServer, startMetricsServer } from '@newsroom/metrics';
import { createRedisConnection } from '@newsroom/queue';
import { startAuditRetention } from './audit/audit-retention';
import { listenForContentChanges } from './content-changes';
import { createImportWorker } from './imports/import-worker';
import { createWorkerLogger } from './logger';
import { createPurgeWorker } from './purge/purge-worker';
import { startRevisionCompaction } from './revisions/revision-compaction';
import { startRevisionThinning } from './revisions/revision-thinning';
import { startScheduler } from './schedule/scheduler';
import { createWebhookWorker } from './webhooks/webhook-worker';

// Boot and graceful close; composes the wings: imports/import-worker.ts, webhooks/webhook-worker.ts,
// schedule/scheduler.ts, revisions/ and purge/purge-worker.ts (only when a CDN is configured).
readLocalEnvFile();
const config = loadOrExit(() => loadWorkerConfig());
const logger = await createWorkerLogger(config);
const db = createDb({
  connectionString: config.databaseUrl,
  max: config.databasePoolSize,
  applicationName: 'newsroom-worker',
  timeouts: config.databaseTimeouts,
  preparedStatements: config.databasePreparedStatements,
});
const connection = createRedisConnection(config.redis, 'worker');
connection.on('error', (error) => logger.error({ err: error.message }, 'redis error'));
if (config.feeds.allowPrivateAddresses) {
  logger.warn('FEED_ALLOW_PRIVATE_ADDRESSES is on: feeds may reach private networks (development only)');
}

const { token: metricsToken, port: metricsPort, host: metricsHost } = config.metrics;
if (metricsPort !== undefined && metricsToken === undefined) {
  logger.warn('WORKER_METRICS_PORT is set but METRICS_TOKEN is not: no metrics listener');
}
// Measured only when someone may read it: a token and a port.
const metricsRegistry =
  metricsToken !== undefined && metricsPort !== undefined ? createMetricsRegistry() : undefined;

const importWorker = await createImportWorker({ config, db, connection, logger, metricsRegistry });
const webhookWorker = await createWebhookWorker({ config, db, connection, logger });
const auditRetention = startAuditRetention({ config, db, logger });
const scheduler = startScheduler({ db, logger, ...config.scheduler });
const revisionThinning = startRevisionThinning({
  db,
  retentionMs: config.revisions.draftRetentionMs,
  logger,
});
const revisionCompaction = startRevisionCompaction({ db, logger });
const purgeWorker = createPurgeWorker({ config, db, logger, metricsRegistry });
const contentChanges = await listenForContentChanges({
  connectionString: config.databaseDirectUrl,
  connectTimeoutMs: config.databaseTimeouts.connectMs,
  logger,
  onChange: () => {
    webhookWorker.wakeRelay();
    purgeWorker?.wake();
  },
});
let metricsServer: MetricsServer | undefined;
if (metricsRegistry && metricsToken !== undefined && metricsPort !== undefined) {
  metricsServer = await startMetricsServer({
    registry: metricsRegistry,
    token: metricsToken,
    host: metricsHost,
    port: metricsPort,
    onError: (error) => logger.error({ err: error }, 'metrics scrape failed'),
  });
  logger.info({ url: `${metricsServer.url}/metrics` }, 'metrics listener started');
}
logger.info({ schedule: config.import.schedule, concurrency: config.import.concurrency }, 'worker started');

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  logger.info({ signal }, 'shutting down: letting active jobs finish');
  // worker.close() has no timeout of its own; a fetch is bounded by its 20 s deadline, so 60 s is ample.
  const force = setTimeout(() => process.exit(1), 60_000).unref();
  await metricsServer?.close();
  await Promise.all([
    contentChanges.close(),
    importWorker.close(),
    webhookWorker.close(),
    scheduler.close(),
    revisionThinning.close(),
    revisionCompaction.stop(),
    auditRetention?.stop(),
    purgeWorker?.close(),
  ]);
  await Promise.allSettled([db.destroy(), connection.quit()]);
  clearTimeout(force);
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
