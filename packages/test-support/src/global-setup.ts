import { randomBytes } from 'node:crypto';
import { migrateToLatest } from '@newsroom/migrations';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { isListening, localPostgresUrl, localRedisUrl, withDatabase } from './services';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin connection string of the test Postgres server (any database on it). */
    pgServerUrl: string;
    /** Migrated database every test file clones its own database from. */
    pgTemplate: string;
    /** Prefix of every database this run creates, so teardown can sweep leftovers. */
    pgRunPrefix: string;
    redisUrl: string;
  }
}

type Stop = () => Promise<unknown>;

/**
 * Finds Postgres and Redis: environment variables first (CI, this machine), then the local
 * default ports, then containers started with testcontainers where a Docker engine exists.
 */
async function resolveServices(stops: Stop[]) {
  let pgServerUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!pgServerUrl && (await isListening('127.0.0.1', 5432))) pgServerUrl = localPostgresUrl;
  if (!pgServerUrl) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:16-alpine').start();
    stops.push(() => container.stop());
    pgServerUrl = container.getConnectionUri();
  }

  let redisUrl = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
  if (!redisUrl && (await isListening('127.0.0.1', 6379))) redisUrl = localRedisUrl;
  if (!redisUrl) {
    const { RedisContainer } = await import('@testcontainers/redis');
    const container = await new RedisContainer('redis:7-alpine').start();
    stops.push(() => container.stop());
    redisUrl = container.getConnectionUrl();
  }
  return { pgServerUrl, redisUrl };
}

function connect(url: string, database?: string) {
  const connectionString = database ? withDatabase(url, database) : url;
  return new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max: 1 }) }),
  });
}

export default async function setup(project: TestProject) {
  const stops: Stop[] = [];
  const { pgServerUrl, redisUrl } = await resolveServices(stops);
  const pgRunPrefix = `newsroom_test_${randomBytes(4).toString('hex')}`;
  const pgTemplate = `${pgRunPrefix}_template`;

  const admin = connect(pgServerUrl);
  await sql`create database ${sql.id(pgTemplate)}`.execute(admin);
  const template = connect(pgServerUrl, pgTemplate);
  try {
    await migrateToLatest(template);
  } finally {
    await template.destroy();
  }

  project.provide('pgServerUrl', pgServerUrl);
  project.provide('pgTemplate', pgTemplate);
  project.provide('pgRunPrefix', pgRunPrefix);
  project.provide('redisUrl', redisUrl);

  return async () => {
    // Sweep every database of this run: test files drop their own, but a crashed file may not have.
    const { rows } = await sql<{ datname: string }>`
      select datname from pg_database where datname like ${`${pgRunPrefix}%`}`.execute(admin);
    for (const { datname } of rows) {
      await sql`drop database if exists ${sql.id(datname)} with (force)`.execute(admin);
    }
    await admin.destroy();
    for (const stop of stops) await stop();
  };
}
