import { type Driver, Kysely, PostgresDialect, type PostgresDialectConfig, type Transaction } from 'kysely';
import pg from 'pg';
import { connectionPool } from './connection-pool';
import { guardedSocket } from './guarded-socket';
import { deadlineCursorClass } from './query-deadline';
import type { Database } from './tables';
import { UnitOfWorkDriver } from './unit-of-work-driver';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the pool-backed handle or an open transaction: repository functions accept both. */
export type DbOrTx = Db | Tx;

export interface CreateDbOptions {
  connectionString: string;
  /** Pool size; about 2x cores is the sweet spot for Postgres on the same box. */
  max?: number;
  applicationName?: string;
  /** Bounds on every wait; without them only the pool checkout is bounded (scripts, migrations). */
  timeouts?: DatabaseTimeouts;
  /**
   * Named prepared statements for the hottest reads (prepared-statements.ts); default on. Off behind a
   * pooler that hands each transaction another server connection (PgBouncer in transaction mode).
   */
  preparedStatements?: boolean;
  /** Wraps the driver (benchmarks: `pnpm bench:history` drops the revision's statement to time PUT without it). */
  wrapDriver?: (driver: Driver) => Driver;
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

/** Every wait on Postgres (0: that bound is off). Values come from configuration (packages/config). */
export interface DatabaseTimeouts {
  /** Waiting for a pooled connection, or for a new one to connect. */
  connectMs: number;
  /** Server side: Postgres cancels a statement running longer (statement_timeout). */
  statementMs: number;
  /** Client side: a round trip with no answer this long fails, and its connection is discarded. */
  queryMs: number;
  /** Server side: Postgres ends a session left idle inside a transaction (idle_in_transaction_session_timeout). */
  idleInTransactionMs: number;
}

const checkoutOnly: DatabaseTimeouts = {
  connectMs: 5_000,
  statementMs: 0,
  queryMs: 0,
  idleInTransactionMs: 0,
};

/** Creates the Kysely handle over a pg pool. The caller owns it and must `destroy()` it. */
export function createDb({
  connectionString,
  max = 10,
  applicationName = 'newsroom',
  timeouts = checkoutOnly,
  preparedStatements = true,
  wrapDriver = (driver) => driver,
}: CreateDbOptions): Db {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: applicationName,
    // pg waits forever for a free connection by default; fail instead so a request gets a clear error.
    connectionTimeoutMillis: timeouts.connectMs,
    idleTimeoutMillis: 10_000,
    // Sent at connect; 0 leaves the server's setting.
    statement_timeout: timeouts.statementMs || undefined,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs || undefined,
    // Notices a peer that vanished without closing (a dead host, a dropped NAT entry) on idle connections.
    keepAlive: true,
    // A garbled answer fails its connection instead of throwing out of a socket event (guarded-socket.ts).
    stream: guardedSocket,
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener it would crash the process.
  pool.on('error', () => {});
  // The cursor lets `.stream()` read big results in chunks (the client /all route) instead of all at once.
  // connectionPool: queries run through `executePrepared` become named prepared statements (when on).
  // query_timeout is applied per query (by the pool wrapper and the cursor), never on the pool: pg would
  // time a whole cursor with it, cutting long streams.
  const db = new Kysely<Database>({
    dialect: new UnitOfWorkPostgresDialect(
      {
        pool: connectionPool(pool, { queryTimeoutMs: timeouts.queryMs, preparedStatements }),
        cursor: deadlineCursorClass(timeouts.queryMs),
      },
      wrapDriver,
    ),
  });
  pools.set(db, pool);
  return db;
}

/** Postgres, where a running unit of work closes with its first writing transaction (unit-of-work-driver.ts). */
class UnitOfWorkPostgresDialect extends PostgresDialect {
  readonly #wrap: (driver: Driver) => Driver;

  constructor(config: PostgresDialectConfig, wrap: (driver: Driver) => Driver) {
    super(config);
    this.#wrap = wrap;
  }

  override createDriver(): Driver {
    return this.#wrap(new UnitOfWorkDriver(super.createDriver()));
  }
}
