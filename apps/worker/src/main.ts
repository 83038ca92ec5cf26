import { loadOrExit, loadWorkerConfig } from '@newsroom/config';
import { createDb } from '@newsroom/domain';
import { createRedisConnection } from '@newsroom/queue';
import { createImportWorker } from './import-worker';
import { createWorkerLogger } from './logger';

// Boot and graceful close. Everything else lives in import-worker.ts.
const config = loadOrExit(() => loadWorkerConfig());
const logger = await createWorkerLogger(config);
const db = createDb({
  connectionString: config.databaseUrl,
  max: config.databasePoolSize,
  applicationName: 'newsroom-worker',
});
const connection = createRedisConnection(config.redis.url, 'worker');
connection.on('error', (error) => logger.error({ err: error.message }, 'redis error'));
if (config.feeds.allowPrivateAddresses) {
  logger.warn('FEED_ALLOW_PRIVATE_ADDRESSES is on: feeds may reach private networks (development only)');
}

const importWorker = await createImportWorker({ config, db, connection, logger });
logger.info({ schedule: config.import.schedule, concurrency: config.import.concurrency }, 'worker started');

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  logger.info({ signal }, 'shutting down: letting active jobs finish');
  // worker.close() has no timeout of its own; a fetch is bounded by its 20 s deadline, so 60 s is ample.
  const force = setTimeout(() => process.exit(1), 60_000).unref();
  await importWorker.close();
  await Promise.allSettled([db.destroy(), connection.quit()]);
  clearTimeout(force);
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
