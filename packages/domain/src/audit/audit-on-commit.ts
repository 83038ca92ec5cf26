import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type InsertQueryNode,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import { isDatabaseUnavailable } from '../db/pg-errors';
import { AuditNotWrittenError } from '../errors';
import { auditAppendArguments } from './audit.repository';
import type { AuditEventInput } from './audit-event';
import { owedAudit, type PendingAudit } from './audit-unit';

// What a connection has done in its open transaction, for the audit row its COMMIT may carry.
interface ConnectionState {
  inTransaction: boolean;
  wrote: boolean;
  /** Rows inserted (with an `id`) in the open transaction, first first. */
  created: { table: string; id: string }[];
}

const writeKinds = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
const writingText = /\b(?:insert\s+into|update\s+\S+\s+set|delete\s+from|merge\s+into)\b/i;

/** Whether a query changes rows: by its builder node, or (raw SQL, a `with` of the builder) by its text. */
function isWrite(query: CompiledQuery): boolean {
  const node = query.query;
  if (writeKinds.has(node.kind)) return true;
  if (node.kind === 'SelectQueryNode' && !('with' in node && node.with)) return false;
  return writingText.test(query.sql);
}

/** Whether a write changed anything: a statement that matched no row (an id not found) is no change to audit. */
const changedRows = (result: QueryResult<unknown>) =>
  (result.numAffectedRows ?? 0n) > 0n || result.rows.length > 0;

function createdRows(query: CompiledQuery, result: QueryResult<unknown>): ConnectionState['created'] {
  if (query.query.kind !== 'InsertQueryNode') return [];
  const table = (query.query as InsertQueryNode).into?.table.identifier.name;
  const id = (result.rows[0] as { id?: unknown } | undefined)?.id;
  return table && typeof id === 'string' ? [{ table, id }] : [];
}

const literal = (value: string | null, type: string) =>
  value === null ? `null::${type}` : `${pg.escapeLiteral(value)}::${type}`;

/**
 * `audit_append(...)` then `COMMIT`, as one simple-protocol string: one round trip for both, so the chain's lock
 * is held from the append to the end of the commit only. Parameters cannot go with several statements, so the
 * values are quoted literals (pg's escapeLiteral). An error in the append skips the COMMIT (the rest of the
 * string), leaving the transaction to the caller's rollback.
 */
function appendThenCommit(event: AuditEventInput): string {
  const { values } = auditAppendArguments(event, false);
  const [at, actorType, actorId, actorLabel, address, action, objectType, objectId, siteId, changes, body] =
    values;
  return `select from audit_append(${[
    literal(at.toISOString(), 'timestamptz'),
    literal(actorType, 'text'),
    literal(actorId, 'uuid'),
    literal(actorLabel, 'text'),
    literal(address, 'text'),
    literal(action, 'text'),
    literal(objectType, 'text'),
    literal(objectId, 'text'),
    literal(siteId, 'uuid'),
    literal(changes, 'jsonb'),
    literal(body, 'text'),
    'false',
  ].join(', ')}); commit`;
}

/** The object of the owed row: named up front, or the first row the change inserted into the object's table. */
function objectIdOf(owed: PendingAudit, created: ConnectionState['created']): string | null {
  if (owed.event.objectId !== undefined) return owed.event.objectId;
  return created.find((row) => row.table === owed.createdIn)?.id ?? null;
}

/** Appends the owed row and commits, in one round trip; the row is the transaction's last statement. */
async function commitWithAudit(
  connection: DatabaseConnection,
  owed: PendingAudit,
  created: ConnectionState['created'],
): Promise<void> {
  const objectId = objectIdOf(owed, created);
  // Claimed before the await: a second transaction of the same unit committing meanwhile does not append too.
  owed.written = true;
  try {
    await connection.executeQuery(CompiledQuery.raw(appendThenCommit({ ...owed.event, objectId })));
    owed.objectId = objectId;
  } catch (error) {
    owed.written = false;
    throw isDatabaseUnavailable(error) ? error : new AuditNotWrittenError(owed.event.action, error);
  }
}

/**
 * Kysely's Postgres driver, with the audit row a running unit owes (audit-unit.ts) appended to the unit's first
 * writing transaction (one whose INSERT, UPDATE or DELETE changed a row), as its last statement before COMMIT. A
 * write outside a transaction that owes the row becomes a transaction of the two (BEGIN, the write, the append,
 * COMMIT). Outside a unit: Kysely's driver as is.
 */
export class AuditOnCommitDriver implements Driver {
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
      const state: ConnectionState = { inTransaction: false, wrote: false, created: [] };
      wrapped = this.#wrap(connection, state);
      this.#wrapped.set(connection, wrapped);
      this.#states.set(wrapped, state);
    }
    return wrapped;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    Object.assign(this.#state(connection), { inTransaction: true, wrote: false, created: [] });
    return this.#inner.beginTransaction(connection, settings);
  }

  async commitTransaction(connection: DatabaseConnection) {
    const state = this.#state(connection);
    const owed = state.wrote ? owedAudit() : undefined;
    state.inTransaction = false;
    if (owed) await commitWithAudit(connection, owed, state.created);
    else await this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection) {
    this.#state(connection).inTransaction = false;
    return this.#inner.rollbackTransaction(connection);
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
      if (!isWrite(query)) return connection.executeQuery<R>(query);
      if (state.inTransaction) {
        const result = await connection.executeQuery<R>(query);
        if (changedRows(result)) state.wrote = true;
        state.created.push(...createdRows(query, result));
        return result;
      }
      const owed = owedAudit();
      if (!owed) return connection.executeQuery<R>(query);
      return this.#writeWithAudit(wrapped, query, owed);
    };
    const wrapped: DatabaseConnection = new Proxy(connection, {
      get(target, property) {
        if (property === 'executeQuery') return executeQuery;
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return wrapped;
  }

  // A lone write that owes the unit's row: BEGIN, the write, the append and COMMIT, both or neither.
  async #writeWithAudit<R>(
    connection: DatabaseConnection,
    query: CompiledQuery,
    owed: PendingAudit,
  ): Promise<QueryResult<R>> {
    const state = this.#state(connection);
    await this.beginTransaction(connection, {});
    try {
      const result = await connection.executeQuery<R>(query);
      state.inTransaction = false;
      if (state.wrote) await commitWithAudit(connection, owed, state.created);
      else await this.#inner.commitTransaction(connection);
      return result;
    } catch (error) {
      await this.#inner.rollbackTransaction(connection).catch(() => {});
      state.inTransaction = false;
      throw error;
    }
  }
}
