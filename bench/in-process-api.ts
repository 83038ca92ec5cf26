/** What the benchmarks that run the API in their own process share (`bench:audit`, `bench:history`). */
import { type ApiConfig, loadApiConfig } from '@newsroom/config';
import type { Db } from '@newsroom/domain';
import type { App } from '../apps/api/src/app';
import { insertAdmin } from '../apps/api/test/support/dashboard-accounts';

/** The API's configuration on this database and Redis, logs silent, jobs under `queuePrefix`. */
export function benchApiConfig(databaseUrl: string, redisUrl: string, queuePrefix: string): ApiConfig {
  return loadApiConfig({
    NODE_ENV: 'test',
    PORT: '3000',
    API_KEY: 'bench-network-api-key-0123456789',
    JWT_SECRET: 'bench-jwt-secret-0123456789-0123456789-0123456789',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: queuePrefix,
    LOG_LEVEL: 'silent',
    REQUEST_LOG_LEVEL: 'silent',
  });
}

/** A new administrator (the API tests' insertAdmin), and the Authorization header `app` accepts for it. */
export async function benchAdmin(app: App, db: Db, email: string) {
  const { id, token } = await insertAdmin(app, db, { email });
  return { id, headers: { authorization: `Bearer ${token}` } };
}
