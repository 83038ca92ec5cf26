/**
 * A benchmark's baseline build: a Kysely driver wrapper that rewrites the statements containing every one of
 * `parts` (each part replaced by its pair, once), leaving all others as they are, and keeping the write-or-fail
 * mark (unit-of-work.ts) of the statements it rewrites. bench:history takes the revision out of the statements
 * that record one this way, so the build without revisions runs the product's code, less exactly that.
 */
import { CompiledQuery, type DatabaseConnection, type Driver } from 'kysely';
import { isWriteOrFail, markWritesOrFails } from '../packages/domain/src/db/unit-of-work';

export function rewritingDriver(parts: readonly [string, string][]): (inner: Driver) => Driver {
  const rewrite = (query: CompiledQuery): CompiledQuery => {
    if (!parts.every(([part]) => query.sql.includes(part))) return query;
    const text = parts.reduce((sql, [part, by]) => sql.replace(part, by), query.sql);
    const replaced = CompiledQuery.raw(text, [...query.parameters]);
    return isWriteOrFail(query) ? markWritesOrFails(replaced) : replaced;
  };
  return (inner) => {
    const outerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const innerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const unwrap = (connection: DatabaseConnection) => innerOf.get(connection) ?? connection;
    return {
      init: () => inner.init(),
      async acquireConnection() {
        const connection = await inner.acquireConnection();
        let outer = outerOf.get(connection);
        if (!outer) {
          outer = new Proxy(connection, {
            get(target, property) {
              if (property === 'executeQuery')
                return (query: CompiledQuery) => target.executeQuery(rewrite(query));
              const value = Reflect.get(target, property, target);
              return typeof value === 'function' ? value.bind(target) : value;
            },
          });
          outerOf.set(connection, outer);
          innerOf.set(outer, connection);
        }
        return outer;
      },
      beginTransaction: (connection, settings) => inner.beginTransaction(unwrap(connection), settings),
      commitTransaction: (connection) => inner.commitTransaction(unwrap(connection)),
      rollbackTransaction: (connection) => inner.rollbackTransaction(unwrap(connection)),
      releaseConnection: (connection) => inner.releaseConnection(unwrap(connection)),
      destroy: () => inner.destroy(),
    };
  };
}

/**
 * The same wrapper rewriting each part to itself: the build that keeps what the other takes out goes through it, so
 * both builds pay the wrapper's own cost (a proxy per connection, a search of every statement's text).
 */
export function sameCostDriver(parts: readonly [string, string][]): (inner: Driver) => Driver {
  return rewritingDriver(parts.map(([part]) => [part, part]));
}
