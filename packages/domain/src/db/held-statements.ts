import { CompiledQuery, type Kysely } from 'kysely';
import pg from 'pg';
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

/** pg's own conversion of a parameter to the text it sends (dates in its format, arrays, JSON): not in its types. */
const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): string | Buffer | null } })
  .utils.prepareValue;

/**
 * `sql` with each `$n` replaced by its parameter as pg would send it (prepareValue), written as an untyped
 * literal: Postgres infers its type from where it stands, as it does for an untyped parameter. Undefined when
 * that cannot be done exactly: a binary value (pg sends Buffers as bytes), a NUL character (it would end the
 * statement's text; as a parameter Postgres refuses it with its own error), or text with quoted strings, dollar
 * quotes or comments of its own (where a `$n` is not a parameter); and when the values are longer than
 * `maxLength` characters in all (Postgres reads a literal character by character, a parameter as it comes).
 */
export function parametersAsLiterals(
  sql: string,
  parameters: readonly unknown[],
  maxLength = Number.POSITIVE_INFINITY,
): string | undefined {
  if (/'|\$\$|--|\/\*/.test(sql)) return undefined;
  const literals: string[] = [];
  let length = 0;
  for (const parameter of parameters) {
    const value = prepareValue(parameter);
    if (value !== null && (typeof value !== 'string' || value.includes('\u0000'))) return undefined;
    length += value?.length ?? 0;
    if (length > maxLength) return undefined;
    literals.push(value === null ? 'null' : quoteText(value));
  }
  let complete = true;
  const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
    const literal = literals[Number(n) - 1];
    if (literal === undefined) complete = false;
    return literal ?? '';
  });
  return complete ? text : undefined;
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
