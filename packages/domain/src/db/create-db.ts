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
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: preparingPool(pool), cursor: Cursor }),
  });
}
