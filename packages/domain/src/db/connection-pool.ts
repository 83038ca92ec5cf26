import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { isBrokenConnection } from './pg-errors';
import { DeadlineCursor, queryReadTimeoutMessage } from './query-deadline';

/**
 * How a query asks to run as a named prepared statement: its SQL text starts with this comment
 * (prepended by `executePrepared`, prepared-statements.ts). The pool below is the only reader of it.
 */
export const preparedStatementMark = '/* prepared */ ';

/** Whether a failed query leaves its connection unfit for another: no answer in time, or a garbled one. */
const discardsConnection = (error: Error) =>
  error.message === queryReadTimeoutMessage || isBrokenConnection(error);

/** BEGIN, COMMIT, and a call answering no columns (`select from f(…)`: a held statement, a unit's closing one). */
const isBookkeeping = (result: pg.QueryResult) =>
  result.command === 'BEGIN' ||
  result.command === 'COMMIT' ||
  (result.command === 'SELECT' && result.fields.length === 0);

/**
 * The answer of a text of several statements (`begin; …`, held statements, a closing statement, a COMMIT): the last
 * statement's that is not bookkeeping, else the last one's.
 */
const answerOf = (result: pg.QueryResult | pg.QueryResult[]) =>
  Array.isArray(result)
    ? (result.findLast((one) => !isBookkeeping(one)) ?? (result[result.length - 1] as pg.QueryResult))
    : result;

/** A backstop: beyond this many distinct texts per pool, marked queries run unnamed (each costs memory per connection). */
const maxStatementNames = 200;

export interface ConnectionPoolOptions {
  /** A round trip with no answer this long fails and its connection is discarded (0: no bound). */
  queryTimeoutMs?: number;
  /**
   * Run marked queries as named prepared statements (parsed once per connection). Needs every query of a
   * connection to reach the same server session: direct connections or PgBouncer in session mode, never
   * transaction pooling. Off: marked queries run like any other (unnamed, parsed and planned each time).
   */
  preparedStatements?: boolean;
}

/**
 * The pool Kysely talks to: pg's pool, with
 * - named prepared statements for queries marked with {@link preparedStatementMark} (when switched on):
 *   the statement's name is derived from its text, so pg sends Parse only the first time a connection
 *   sees it, and Postgres may keep a generic plan for it;
 * - with `queryTimeoutMs`, a query or cursor round trip with no answer by then fails (pg's query_timeout,
 *   {@link DeadlineCursor}), and its connection is hung: later queries on it fail at once and it is
 *   discarded on release instead of going back to the pool.
 */
export function connectionPool(pool: pg.Pool, options: ConnectionPoolOptions = {}): PostgresPool {
  const { queryTimeoutMs = 0, preparedStatements = true } = options;
  const statementNames = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    if (!preparedStatements || !text.startsWith(preparedStatementMark)) return undefined;
    let name = statementNames.get(text);
    if (name === undefined && statementNames.size < maxStatementNames) {
      name = `k_${createHash('sha1').update(text).digest('base64url')}`;
      statementNames.set(text, name);
    }
    return name;
  };

  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let hung: Error | undefined;
    // pg-pool listens for errors only on idle clients; a connection lost under a checked-out client (a
    // Postgres restart mid-query) would emit 'error' with no listener and crash the process. The query
    // itself fails with the same error; here the client is only marked so it is discarded.
    client.on('error', (error) => (hung = error));
    // A query that timed out, or whose answer made no sense, leaves the connection in an unknown state.
    const noteBroken = (error: unknown) => {
      if (error instanceof Error && discardsConnection(error)) hung = error;
      throw error;
    };
    // Kysely calls query(sql, parameters) for queries and query(cursor) for streams.
    const query = (text: string | pg.Submittable, values?: unknown[]) => {
      if (typeof text !== 'string') {
        if (text instanceof DeadlineCursor) text.onTimeout = (error) => (hung = error);
        return client.query(text);
      }
      if (hung) return Promise.reject(hung);
      const name = nameOf(text);
      const config: pg.QueryConfig & { query_timeout?: number } = name
        ? { name, text, values }
        : { text, values };
      if (queryTimeoutMs > 0) config.query_timeout = queryTimeoutMs;
      // Several statements in one text: Kysely reads the statement's own answer (answerOf).
      return client.query(config).then(answerOf, noteBroken);
    };
    return {
      query: query as unknown as PostgresPoolClient['query'],
      // An error makes pg-pool destroy the client rather than hand a stuck connection to the next caller.
      release: () => client.release(hung),
    };
  };
  // Each client is wrapped, and so gets its error listener, the moment it has connected: pg-pool emits
  // 'connect' before it hands the client out and drops its own idle listener. Wrapping after
  // `await pool.connect()` left a gap: a FATAL read in the same turn as the startup's last message (a
  // terminated backend, a corrupted stream) was emitted with no listener and crashed the process.
  pool.on('connect', (client) => wrappers.set(client as pg.PoolClient, wrap(client as pg.PoolClient)));
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        // A client connected before this wrapper was made (never, for pools made by createDb).
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
    options: pool.options,
  };
}
