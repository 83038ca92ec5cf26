import { createTestDatabase } from '@newsroom/test-support';
import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { executeHeld, functionCallText, sqlLiteral } from '../src/db/held-statements';
import { type InsertedRow, runUnitOfWork, type UnitOfWork } from '../src/db/unit-of-work';
import { roundTrips } from './support/round-trips';

// A held statement (db/held-statements.ts) goes with the transaction's next statement or with its COMMIT:
// what follows sees its rows, its failure rolls the transaction back, and as the last statement it costs no
// round trip of its own. The article's revision is one (insertRevision).

const { db, destroy } = await createTestDatabase();
afterAll(destroy);
await sql`create table held_row (n integer primary key check (n > 0), note text)`.execute(db);
await sql`create table held_touch (id integer primary key, at timestamptz)`.execute(db);
await sql`create table held_closing (name text not null)`.execute(db);
beforeEach(async () => {
  await sql`truncate held_row, held_touch, held_closing`.execute(db);
  await sql`insert into held_touch values (1, null)`.execute(db);
});

const rows = async () =>
  (await sql<{ n: number; note: string | null }>`select n, note from held_row order by n`.execute(db)).rows;
const hold = (trx: typeof db, n: number, note: string | null = null) =>
  executeHeld(trx, `insert into held_row (n, note) values (${sqlLiteral(n)}, ${sqlLiteral(note)})`);
const touch = (trx: typeof db) => sql`update held_touch set at = now() where id = 1`.execute(trx);

afterEach(() => vi.restoreAllMocks());

describe('a held statement', () => {
  it('that is the last of its transaction goes with the COMMIT, in one round trip', async () => {
    const sent = await roundTrips(() =>
      db.transaction().execute(async (trx) => {
        await touch(trx);
        await hold(trx, 1, "it's \\ quoted");
      }),
    );
    // The BEGIN goes with the first statement (unit-of-work-driver.ts), the held insert with the COMMIT.
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBe('begin; update held_touch set at = now() where id = 1');
    expect(sent[1]).toMatch(/^insert into held_row .*; commit$/);
    expect(await rows()).toEqual([{ n: 1, note: "it's \\ quoted" }]);
  });

  it('goes ahead of the next statement of its transaction, which sees its row', async () => {
    const seen = await db.transaction().execute(async (trx) => {
      await hold(trx, 1);
      await hold(trx, 2);
      return (await sql<{ count: string }>`select count(*) from held_row`.execute(trx)).rows[0]?.count;
    });
    expect(seen).toBe('2');
    expect(await rows()).toHaveLength(2);
  });

  it('that fails rolls its whole transaction back, and the error reaches the caller', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into held_row values (5, 'kept?')`.execute(trx);
        await hold(trx, -1); // the check refuses it, at COMMIT
      }),
    ).rejects.toThrow(/held_row_n_check/);
    expect(await rows()).toEqual([]);
    // The connection is usable afterwards (the pool hands it out again).
    await db.transaction().execute((trx) => hold(trx, 3));
    expect(await rows()).toEqual([{ n: 3, note: null }]);
  });

  it('is dropped with a transaction that rolls back', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await hold(trx, 1);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await db.transaction().execute((trx) => touch(trx));
    expect(await rows()).toEqual([]);
  });

  it('runs at once outside a transaction', async () => {
    await hold(db, 4);
    expect(await rows()).toEqual([{ n: 4, note: null }]);
  });

  it("goes before a unit of work's closing statement, in the COMMIT's round trip", async () => {
    const unit: UnitOfWork & { closed: boolean } = {
      closed: false,
      get owed() {
        return !this.closed;
      },
      close(_inserted: readonly InsertedRow[]) {
        this.closed = true;
        return `insert into held_closing values ('closed after ' || (select count(*) from held_row))`;
      },
      reopen: (error: unknown) => error,
    };
    const sent = await roundTrips(() =>
      runUnitOfWork(unit, () =>
        db.transaction().execute(async (trx) => {
          await touch(trx);
          await hold(trx, 1);
        }),
      ),
    );
    expect(sent).toHaveLength(2);
    expect(
      (await sql<{ name: string }>`select name from held_closing`.execute(db)).rows.map((r) => r.name),
    ).toEqual(['closed after 1']);
  });
});

describe('sqlLiteral', () => {
  it('quotes text, numbers, booleans, null and dates', () => {
    expect(
      ["O'Brien \\ said", 12.5, true, null, new Date('2026-11-28T01:00:00Z'), 'tenth']
        .map(sqlLiteral)
        .join(', '),
    ).toBe(` E'O''Brien \\\\ said', 12.5, true, null, '2026-11-28T01:00:00.000Z', 'tenth'`);
  });

  it("quotes text as pg's escapeLiteral does, and Postgres reads back the same text", async () => {
    // Quotes, backslashes and astral characters often; \u0000 left out (Postgres text cannot hold it).
    const text = fc
      .array(fc.oneof(fc.constantFrom("'", '\\', "''", "\\'", 'E', ' '), fc.string({ unit: 'grapheme' })))
      .map((parts) => parts.join('').replaceAll('\u0000', ''));
    fc.assert(
      fc.property(text, (value) => sqlLiteral(value) === pg.escapeLiteral(value)),
      { numRuns: 2000 },
    );
    const samples = fc.sample(text, 200);
    const read = await sql
      .raw<{ value: string }>(
        samples.map((value) => `select ${sqlLiteral(value)}::text as value`).join(' union all '),
      )
      .execute(db);
    expect(read.rows.map((row) => row.value)).toEqual(samples);
  });

  it('refuses values it cannot quote', () => {
    expect(() => sqlLiteral({ a: 1 })).toThrow(/object parameter/);
    expect(() => sqlLiteral(Number.NaN)).toThrow(/number parameter/);
  });
});

describe('functionCallText', () => {
  it('calls a function with each argument a literal of its type', async () => {
    const call = functionCallText('held_call', [
      [3, 'integer'],
      ["it's", 'text'],
      [null, 'uuid'],
      [new Date('2026-11-28T01:00:00Z'), 'timestamptz'],
    ]);
    expect(call).toBe(
      `select from held_call(3::integer, 'it''s'::text, null::uuid, '2026-11-28T01:00:00.000Z'::timestamptz)`,
    );
    await sql`create function held_call(n integer, note text, id uuid, at timestamptz) returns void
      language sql as $$ insert into held_row values (n, note || ' ' || coalesce(id::text, 'none') || ' '
      || to_char(at at time zone 'UTC', 'YYYY-MM-DD HH24:MI')) $$`.execute(db);
    await db.transaction().execute((trx) => executeHeld(trx, call));
    expect(await rows()).toEqual([{ n: 3, note: "it's none 2026-11-28 01:00" }]);
  });
});
