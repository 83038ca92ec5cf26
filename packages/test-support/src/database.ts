import { randomBytes } from 'node:crypto';
import { createDb, type Db } from '@newsroom/domain';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { withDatabase } from './services';

export interface TestDatabase {
  db: Db;
  /**
   * Connection string of this file's own database, for code that opens its own pool (API, worker): through
   * PgBouncer when the run says so (TEST_PGBOUNCER_URL, scripts/test-through-pgbouncer.ts).
   */
  url: string;
  /** The same database without the pooler (LISTEN; equal to `url` when there is none). */
  directUrl: string;
  /** Whether `url` goes through PgBouncer in transaction mode (no named prepared statements then). */
  pooled: boolean;
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file, cloned from the run's template
 * (a file-level copy: milliseconds, and no state shared with other files).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('pgServerUrl');
  const name = `${inject('pgRunPrefix')}_${randomBytes(4).toString('hex')}`;
  const admin = new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: serverUrl, max: 1 }) }),
  });
  try {
    await sql`create database ${sql.id(name)} template ${sql.id(inject('pgTemplate'))}`.execute(admin);
  } finally {
    await admin.destroy();
  }
  const directUrl = withDatabase(serverUrl, name);
  const pooler = process.env.TEST_PGBOUNCER_URL;
  const url = pooler ? withDatabase(pooler, name) : directUrl;
  const db = createDb({
    connectionString: url,
    max: 5,
    applicationName: 'newsroom-test',
    preparedStatements: !pooler,
  });
  return {
    db,
    url,
    directUrl,
    pooled: pooler !== undefined,
    async destroy() {
      await db.destroy();
      const dropper = new Kysely<any>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: serverUrl, max: 1 }) }),
      });
      try {
        await sql`drop database if exists ${sql.id(name)} with (force)`.execute(dropper);
      } finally {
        await dropper.destroy();
      }
    },
  };
}
