import { createHash } from 'node:crypto';
import type { Compilable, CompiledQuery, PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import type { DbOrTx } from './create-db';
import { DeadlineCursor, queryReadTimeoutMessage } from './query-deadline';

// Named prepared statements for the hottest reads (the client API's pages and articles).
// A query run through `executePrepared` is parsed once per connection and then only bound and executed;
// Postgres may also keep a generic plan for it when that plan is estimated no worse than custom ones.
// Everything else keeps pg's unnamed statements, parsed and planned per execution.
//
// Only fixed-shape queries belong here (their SQL text does not grow with the input, e.g. no `in (...)`
// lists), and only ones naming their columns (a prepared `select *` fails once a column is added).
// Not compatible with PgBouncer's transaction pooling (statements would land on other connections).

const statementNames = new Map<string, string>();
/** A backstop: beyond this many distinct texts, queries run unprepared (each costs memory per connection). */
const maxStatements = 200;

/** Runs a query as a named prepared statement on whatever connection runs it (the pool's or a transaction's). */
export async function executePrepared<O>(db: DbOrTx, query: Compilable<O>): Promise<O[]> {
  return runPrepared(db, query.compile());
}

async function runPrepared<O>(db: DbOrTx, compiled: CompiledQuery<O>): Promise<O[]> {
  if (!statementNames.has(compiled.sql) && statementNames.size < maxStatements) {
    statementNames.set(compiled.sql, `k_${createHash('sha1').update(compiled.sql).digest('base64url')}`);
  }
  return (await db.executeQuery(compiled)).rows;
}

/** Stands for a bound value while a template is built: `param('id')` is bound to `values.id` on each run. */
export type Param = <T>(name: string) => T;

interface Template {
  compiled: CompiledQuery<unknown>;
  /** Per bound parameter, the name of the value to bind. */
  names: string[];
}

const templates = new Map<string, Template>();
const markerPrefix = '\u0000param:';

/**
 * Like executePrepared, for the hottest reads: the query is built and compiled once per `shape` (a key naming
 * everything that changes its SQL text), then each run only binds `values`. Building and compiling a Kysely
 * query costs more Node CPU than Postgres spends executing a 20-row page.
 * In `build`, every bound value must come from `param(name)` (a value bound any other way would be frozen into
 * the template: that throws). Constants belong in the SQL text (`sql.lit`) and in the shape.
 */
export async function executePreparedTemplate<O>(
  db: DbOrTx,
  shape: string,
  build: (param: Param) => Compilable<O>,
  values: Record<string, unknown>,
): Promise<O[]> {
  let template = templates.get(shape);
  if (!template) {
    template = compileTemplate(build);
    if (templates.size < maxStatements) templates.set(shape, template);
  }
  const parameters = template.names.map((name) => values[name]);
  return runPrepared(db, { ...(template.compiled as CompiledQuery<O>), parameters });
}

function compileTemplate<O>(build: (param: Param) => Compilable<O>): Template {
  const compiled = build(<T>(name: string) => `${markerPrefix}${name}` as T).compile();
  if (compiled.sql.includes(markerPrefix)) {
    throw new Error('A template parameter was written into the SQL text instead of being bound');
  }
  const names = compiled.parameters.map((value) => {
    if (typeof value === 'string' && value.startsWith(markerPrefix)) return value.slice(markerPrefix.length);
    throw new Error(`A template binds a value that is not a param(): ${String(value)}`);
  });
  return { compiled, names };
}

/**
 * The pool Kysely talks to: pg's pool, whose clients run registered texts as named statements
 * (pg sends Parse only the first time a connection sees a name). With `queryTimeoutMs`, a query or cursor
 * round trip with no answer by then fails (pg's query_timeout, {@link DeadlineCursor}), and its connection
 * is hung: later queries on it fail at once and it is discarded on release instead of going back to the pool.
 */
export function preparingPool(pool: pg.Pool, queryTimeoutMs = 0): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let hung: Error | undefined;
    // pg-pool listens for errors only on idle clients; a connection lost under a checked-out client (a
    // Postgres restart mid-query) would emit 'error' with no listener and crash the process. The query
    // itself fails with the same error; here the client is only marked so it is discarded.
    client.on('error', (error) => (hung = error));
    const noteTimeout = (error: unknown) => {
      if (error instanceof Error && error.message === queryReadTimeoutMessage) hung = error;
      throw error;
    };
    // Kysely calls query(sql, parameters) for queries and query(cursor) for streams.
    const query = (text: string | pg.Submittable, values?: unknown[]) => {
      if (typeof text !== 'string') {
        if (text instanceof DeadlineCursor) text.onTimeout = (error) => (hung = error);
        return client.query(text);
      }
      if (hung) return Promise.reject(hung);
      const name = statementNames.get(text);
      const config: pg.QueryConfig & { query_timeout?: number } = name
        ? { name, text, values }
        : { text, values };
      if (queryTimeoutMs > 0) config.query_timeout = queryTimeoutMs;
      return client.query(config).catch(noteTimeout);
    };
    return {
      query: query as unknown as PostgresPoolClient['query'],
      // An error makes pg-pool destroy the client rather than hand a stuck connection to the next caller.
      release: () => client.release(hung),
    };
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
    options: pool.options,
  };
}
