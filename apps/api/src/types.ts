import type { ApiConfig } from '@newsroom/config';
import type { Db, PasswordHasher } from '@newsroom/domain';
import type { Redis } from 'ioredis';

/** What the API is built from. The composition root (server.ts, or a test) creates and owns these. */
export interface AppDeps {
  config: ApiConfig;
  db: Db;
  /** A fail-fast ("producer") connection: commands error at once while Redis is down. */
  redis: Redis;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: ApiConfig;
    db: Db;
    redis: Redis;
    /** bcrypt at the configured cost; shared so the dummy hash for unknown e-mails is made once. */
    passwords: PasswordHasher;
  }
}
