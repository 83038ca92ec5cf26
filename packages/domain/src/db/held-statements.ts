import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './tables';

// Statements a transaction holds until its next statement or its COMMIT (unit-of-work-driver.ts): a write
// whose answer nobody reads (an article's revision) that is the transaction's last costs no round trip of its
// own, it goes with the COMMIT. Several statements go in one string only without parameters, so a held
// statement is SQL text whose values are quoted literals (sqlLiteral: pg's escapeLiteral, byte for byte), as
// the audit row's are. Written as text, not built and compiled by Kysely: a revision is held on every article
// write, and building its query cost the API more CPU than Postgres spends inserting it.

const held = new WeakSet<CompiledQuery>();

/** Whether `query` was given to executeHeld (the driver holds it). */
export function isHeldStatement(query: CompiledQuery): boolean {
  return held.has(query);
}

/**
 * Runs `statement` (SQL text, its values literals from sqlLiteral) in the transaction `tx` holds, sent with the
 * transaction's next statement (just before it) or with its COMMIT (before a unit of work's closing statement),
 * whichever comes first: what follows in the transaction sees its rows. It answers nothing; its failure is that
 * statement's or the COMMIT's, and the transaction rolls back. Outside a transaction it runs at once.
 */
export async function executeHeld(
  tx: Pick<Kysely<Database>, 'executeQuery'>,
  statement: string,
): Promise<void> {
  const query = CompiledQuery.raw(statement);
  held.add(query);
  await tx.executeQuery(query);
}

/**
 * `select from name(…)` with each argument a literal of its type (sqlLiteral): a call of a database function whose
 * answer nobody reads, for executeHeld or a unit of work's closing statement.
 */
export function functionCallText(name: string, args: ReadonlyArray<readonly [unknown, string]>): string {
  return `select from ${name}(${args.map(([value, type]) => `${sqlLiteral(value)}::${type}`).join(', ')})`;
}

/** A value as a quoted SQL literal (text, numbers, booleans, null, dates), for statements sent without parameters. */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return quoteText(value);
  if (value instanceof Date) return quoteText(value.toISOString());
  throw new Error(`a ${typeof value} parameter cannot be quoted for a held statement`);
}

/**
 * Text as a literal, the same bytes as pg's `escapeLiteral` (quotes doubled; with a backslash, backslashes doubled
 * and the E'' form, whatever standard_conforming_strings says), by the engine's replaceAll rather than escapeLiteral's
 * character-by-character concatenation: 0.5 µs instead of 24 µs for a revision's 3.6 KB of JSON.
 */
function quoteText(value: string): string {
  const quoted = value.replaceAll("'", "''");
  return value.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}
