import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type InsertQueryNode,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { isHeldStatement, parametersAsLiterals } from './held-statements';
import { isRefusedByPostgres } from './pg-errors';
import { type InsertedRow, isWriteOrFail, owedUnitOfWork, type UnitOfWork } from './unit-of-work';

// What a connection has done in its open transaction, for the closing statement its COMMIT may carry.
interface ConnectionState {
  inTransaction: boolean;
  /** The transaction's BEGIN, not sent yet: it goes with the transaction's first round trip. */
  beginPending: boolean;
  wrote: boolean;
  /** Rows inserted (with an `id`) in the open transaction, first first. */
  inserted: InsertedRow[];
  /** Statements held for the transaction's next round trip (held-statements.ts), first first. */
  held: string[];
}

const writeKinds = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
const writingText = /\b(?:insert\s+into|update\s+\S+\s+set|delete\s+from|merge\s+into)\b/i;

/** Whether a query may change rows: by its builder node, or (raw SQL, a `with` of the builder) by its text. */
function isWrite(query: CompiledQuery): boolean {
  const node = query.query;
  if (writeKinds.has(node.kind)) return true;
  if (node.kind === 'SelectQueryNode' && !('with' in node && node.with)) return false;
  return writingText.test(query.sql);
}

/** Whether a write changed anything: a statement that matched no row (an id not found) is no change. */
const changedRows = (result: QueryResult<unknown>) =>
  (result.numAffectedRows ?? 0n) > 0n || result.rows.length > 0;

function insertedRows(query: CompiledQuery, result: QueryResult<unknown>): InsertedRow[] {
  if (query.query.kind !== 'InsertQueryNode') return [];
  const table = (query.query as InsertQueryNode).into?.table.identifier.name;
  const id = (result.rows[0] as { id?: unknown } | undefined)?.id;
  return table && typeof id === 'string' ? [{ table, id }] : [];
}

/** What the transaction has not sent yet, ahead of what comes next: its BEGIN, and its held statements. */
function takePending(state: ConnectionState): string[] {
  const statements = state.beginPending ? ['begin', ...state.held] : state.held;
  state.beginPending = false;
  state.held = [];
  return statements;
}

/** The pending BEGIN and held statements, ahead of the transaction's next statement (which may read what they wrote). */
async function sendPending(connection: DatabaseConnection, state: ConnectionState) {
  const statements = takePending(state);
  if (statements.length > 0) await connection.executeQuery(CompiledQuery.raw(statements.join('; ')));
}

/**
 * The most a first statement's values may weigh to carry the transaction's BEGIN: Postgres lexes a literal's every
 * character, a parameter not at all; well below this, that costs less than the round trip it saves (a PUT's
 * article, say), an import batch's hundreds of kilobytes would not.
 */
const maxLiteralsWithBegin = 64 * 1024;

/**
 * `query`, with the transaction's BEGIN when it is the first: in the same round trip, its parameters written as
 * literals (held-statements' parametersAsLiterals), or, when they cannot be, just before it.
 */
async function sendInTransaction<R>(
  connection: DatabaseConnection,
  state: ConnectionState,
  query: CompiledQuery,
): Promise<QueryResult<R>> {
  if (!state.beginPending) return connection.executeQuery<R>(query);
  const withLiterals = parametersAsLiterals(query.sql, query.parameters, maxLiteralsWithBegin);
  if (withLiterals === undefined) {
    await sendPending(connection, state);
    return connection.executeQuery<R>(query);
  }
  state.beginPending = false;
  return connection.executeQuery<R>(CompiledQuery.raw(`begin; ${withLiterals}`));
}

/**
 * The held statements, the unit's closing statement and COMMIT, in one round trip: whatever they lock is held
 * to the commit only. An error skips the COMMIT after it; the caller rolls back.
 */
async function commitWithHeld(
  connection: DatabaseConnection,
  state: ConnectionState,
  unit: UnitOfWork | undefined,
) {
  const statements = takePending(state);
  if (unit) statements.push(unit.close(state.inserted));
  try {
    await connection.executeQuery(CompiledQuery.raw(`${statements.join('; ')}; commit`));
  } catch (error) {
    throw unit ? unit.reopen(error) : error;
  }
}

/**
 * A write that changes a row or fails (markWritesOrFails) and the unit's closing statement, in one text: Postgres
 * runs the statements of one simple query as one implicit transaction, so both commit or neither, in one round trip
 * and without BEGIN or COMMIT. The write's parameters are written as literals (parametersAsLiterals). Undefined
 * when they cannot be, or when Postgres refused the text (nothing committed): then the two-step form runs, which
 * tells the write's failure from the closing statement's.
 */
async function sendWithClosing<R>(
  connection: DatabaseConnection,
  query: CompiledQuery,
  unit: UnitOfWork,
): Promise<QueryResult<R> | undefined> {
  const write = parametersAsLiterals(query.sql, query.parameters, maxLiteralsWithBegin);
  if (write === undefined) return undefined;
  try {
    return await connection.executeQuery<R>(CompiledQuery.raw(`${write}; ${unit.close([])}`));
  } catch (error) {
    const reopened = unit.reopen(error);
    if (isRefusedByPostgres(error)) return undefined;
    throw reopened;
  }
}

/**
 * Kysely's driver, with a running unit of work (unit-of-work.ts) closed by the unit's first writing transaction
 * (one whose INSERT, UPDATE or DELETE changed a row): its closing statement runs last, before COMMIT. A write
 * outside a transaction that owes it becomes a transaction of the two (BEGIN, the write, the closing statement,
 * COMMIT); one marked as changing a row or failing (markWritesOrFails) goes with the closing statement in one
 * round trip. Outside a unit: the driver as is. In any transaction, statements given to executeHeld
 * (held-statements.ts) are held and sent with the transaction's next statement or its COMMIT.
 *
 * A transaction's BEGIN costs no round trip of its own either: it is sent with the transaction's first statement
 * (`begin; <statement>`, that statement's parameters written as literals), or with its held statements and
 * COMMIT; a transaction that sent nothing sends neither BEGIN nor COMMIT. Only `start transaction` with an
 * isolation level or access mode is sent at once.
 */
export class UnitOfWorkDriver implements Driver {
  readonly #inner: Driver;
  readonly #wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #states = new WeakMap<DatabaseConnection, ConnectionState>();

  constructor(inner: Driver) {
    this.#inner = inner;
  }

  init() {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    let wrapped = this.#wrapped.get(connection);
    if (!wrapped) {
      const state: ConnectionState = {
        inTransaction: false,
        beginPending: false,
        wrote: false,
        inserted: [],
        held: [],
      };
      wrapped = this.#wrap(connection, state);
      this.#wrapped.set(connection, wrapped);
      this.#states.set(wrapped, state);
    }
    return wrapped;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const deferred = !settings.isolationLevel && !settings.accessMode;
    const state = this.#state(connection);
    Object.assign(state, {
      inTransaction: true,
      beginPending: deferred,
      wrote: false,
      inserted: [],
      held: [],
    });
    if (!deferred) await this.#inner.beginTransaction(connection, settings);
  }

  async commitTransaction(connection: DatabaseConnection) {
    const state = this.#state(connection);
    const unit = state.wrote ? owedUnitOfWork() : undefined;
    state.inTransaction = false;
    if (unit || state.held.length > 0) await commitWithHeld(connection, state, unit);
    else if (state.beginPending)
      state.beginPending = false; // nothing sent: nothing to commit
    else await this.#inner.commitTransaction(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    const state = this.#state(connection);
    const begun = !state.beginPending;
    Object.assign(state, { inTransaction: false, beginPending: false, held: [] });
    if (begun) await this.#inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection) {
    return this.#inner.releaseConnection(connection);
  }

  destroy() {
    return this.#inner.destroy();
  }

  #state(connection: DatabaseConnection): ConnectionState {
    const state = this.#states.get(connection);
    if (!state) throw new Error('a connection this driver did not hand out');
    return state;
  }

  // Kysely's own connection, its executeQuery watched; everything else (release, cancel) reaches the original.
  #wrap(connection: DatabaseConnection, state: ConnectionState): DatabaseConnection {
    const executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
      if (state.inTransaction && isHeldStatement(query)) {
        state.held.push(query.sql);
        state.wrote = true;
        return { rows: [] };
      }
      if (state.held.length > 0) await sendPending(connection, state);
      if (!isWrite(query)) return sendInTransaction<R>(connection, state, query);
      if (state.inTransaction) {
        const result = await sendInTransaction<R>(connection, state, query);
        if (changedRows(result)) state.wrote = true;
        state.inserted.push(...insertedRows(query, result));
        return result;
      }
      const unit = owedUnitOfWork();
      if (!unit) return connection.executeQuery<R>(query);
      if (isWriteOrFail(query)) {
        const result = await sendWithClosing<R>(connection, query, unit);
        if (result) return result;
      }
      return this.#writeClosing(wrapped, query, unit);
    };
    // A stream in a transaction reads after what the transaction has not sent yet.
    async function* streamQuery<R>(query: CompiledQuery, chunkSize: number) {
      await sendPending(connection, state);
      yield* connection.streamQuery<R>(query, chunkSize);
    }
    const wrapped: DatabaseConnection = new Proxy(connection, {
      get(target, property) {
        if (property === 'executeQuery') return executeQuery;
        if (property === 'streamQuery') return streamQuery;
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return wrapped;
  }

  // A lone write while a unit is owed: BEGIN, the write, the closing statement and COMMIT, both or neither.
  async #writeClosing<R>(
    connection: DatabaseConnection,
    query: CompiledQuery,
    unit: UnitOfWork,
  ): Promise<QueryResult<R>> {
    const state = this.#state(connection);
    await this.beginTransaction(connection, {});
    try {
      const result = await connection.executeQuery<R>(query);
      state.inTransaction = false;
      if (state.wrote) await commitWithHeld(connection, state, unit);
      else await this.#inner.commitTransaction(connection);
      return result;
    } catch (error) {
      await this.rollbackTransaction(connection).catch(() => {});
      throw error;
    }
  }
}
