import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { preparingPool } from './prepared-statements';
import type { Database } from './tables';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the pool-backed handle or an open transaction: repository functions accept both. */
export type DbOrTx = Db | Tx;

export interface CreateDbOptions {
  connectionString: string;
  /** Pool size; about 2x cores is the sweet spot for Postgres on the same box. */
  max?: number;
  applicationName?: string;
}

/** A pool's connections at one instant, for metrics. */
export interface DbPoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

// Kysely hides its pool; metrics read it at scrape time through poolStatsOf.
const pools = new WeakMap<Db, pg.Pool>();

/** The pool behind a handle made by createDb (undefined for any other handle). */
export function poolStatsOf(db: Db): DbPoolStats | undefined {
  const pool = pools.get(db);
  if (!pool) return undefined;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max };
}

/** Creates the Kysely handle over a pg pool. The caller owns it and must `destroy()` it. */
export function createDb({ connectionString, max = 10, applicationName = 'newsroom' }: CreateDbOptions): Db {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: applicationName,
    // pg waits forever for a free connection by default; fail instead so a request gets a clear error.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 10_000,
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener it would crash the process.
  pool.on('error', () => {});
  // The cursor lets `.stream()` read big results in chunks (the client /all route) instead of all at once.
  // preparingPool: queries run through `executePrepared` become named prepared statements.
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: preparingPool(pool), cursor: Cursor }),
  });
  pools.set(db, pool);
  return db;
}
