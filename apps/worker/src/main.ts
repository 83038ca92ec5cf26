import { loadOrExit, loadWorkerConfig } from '@newsroom/config';
import { createDb } from '@newsroom/domain';
import { createRedisConnection } from '@newsroom/queue';
import pino from 'pino';

// Boot + graceful close. The feed-import jobs are registered by the feed ingestion work.
const config = loadOrExit(() => loadWorkerConfig());
const logger = pino({ level: config.logLevel, name: 'worker' });
const db = createDb({ connectionString: config.databaseUrl, max: 5, applicationName: 'newsroom-worker' });
const connection = createRedisConnection(config.redis.url, 'worker');
logger.info('worker started');

async function shutdown(signal: string) {
  logger.info({ signal }, 'shutting down');
  await Promise.allSettled([db.destroy(), connection.quit()]);
  process.exit(0);
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
