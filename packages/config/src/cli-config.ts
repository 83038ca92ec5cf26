import { Type } from 'typebox';
import { commonVariables } from './common-config';
import { parseEnv } from './parse-env';
import { type RedisConfig, redisConfigOf, redisVariables } from './redis-config';
import { BcryptCost, bcryptCostOf, SearchLanguage } from './setting-types';

/** What `pnpm migrate` reads: the database, and the search language it applies after the migrations. */
export const migrateEnvSchema = Type.Object({
  DATABASE_URL: commonVariables.DATABASE_URL,
  SEARCH_LANGUAGE: SearchLanguage,
});

/**
 * What `pnpm admin:create` reads: the database, how hard to hash the password, and the API's Redis and key
 * prefix (a password reset forgets the failed logins counted there).
 */
export const adminCliEnvSchema = Type.Object({
  NODE_ENV: commonVariables.NODE_ENV,
  DATABASE_URL: commonVariables.DATABASE_URL,
  BCRYPT_COST: BcryptCost,
  ...redisVariables,
});

/** Configuration of `pnpm migrate`. */
export function loadMigrateConfig(source: NodeJS.ProcessEnv = process.env): {
  databaseUrl: string;
  searchLanguage: string;
} {
  const env = parseEnv(migrateEnvSchema, source);
  return { databaseUrl: env.DATABASE_URL, searchLanguage: env.SEARCH_LANGUAGE };
}

/** Configuration of the `pnpm admin:create` command: no API secrets needed. */
export function loadAdminCliConfig(source: NodeJS.ProcessEnv = process.env): {
  databaseUrl: string;
  bcryptCost: number;
  redis: RedisConfig;
} {
  const env = parseEnv(adminCliEnvSchema, source);
  return {
    databaseUrl: env.DATABASE_URL,
    bcryptCost: bcryptCostOf(env),
    redis: redisConfigOf(env),
  };
}
