import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parametersAsLiterals } from '../src/db/held-statements';
import { roundTrips } from './support/round-trips';

// A transaction's BEGIN costs no round trip of its own (db/unit-of-work-driver.ts): it goes with the first
// statement, whose parameters are then written as literals, or with the held statements and the COMMIT.

const { db, destroy } = await createTestDatabase();
afterAll(destroy);
await sql`create table begin_row (id serial primary key, name text not null unique, tags text[], doc jsonb,
  at timestamptz, n integer, flag boolean, data bytea)`.execute(db);
beforeEach(async () => {
  await sql`truncate begin_row`.execute(db);
});
afterEach(() => vi.restoreAllMocks());

const names = async () =>
  (await sql<{ name: string }>`select name from begin_row order by id`.execute(db)).rows.map((r) => r.name);

describe("a transaction's BEGIN", () => {
  it('goes with its first statement, whose values arrive as they would as parameters', async () => {
    const at = new Date('2026-11-28T15:40:01.234Z');
    let row: unknown;
    const sent = await roundTrips(() =>
      db.transaction().execute(async (trx) => {
        row = await trx
          .insertInto('begin_row' as never)
          .values({
            name: "O'Brien \\ said",
            tags: ['a', 'b c', 'd"e'],
            doc: JSON.stringify({ k: ['v', 1] }),
            at,
            n: 42,
            flag: false,
          } as never)
          .returning(['name', 'tags', 'doc', 'at', 'n', 'flag'] as never)
          .executeTakeFirst();
        await sql`update begin_row set n = n + ${1}`.execute(trx);
      }),
    );
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatch(/^begin; insert into "begin_row"/);
    expect(sent[2]).toBe('commit');
    expect(row).toEqual({
      name: "O'Brien \\ said",
      tags: ['a', 'b c', 'd"e'],
      doc: { k: ['v', 1] },
      at,
      n: 42,
      flag: false,
    });
    expect(await names()).toEqual(["O'Brien \\ said"]);
  });

  it('is rolled back with its first statement when the transaction fails', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into begin_row (name) values (${'kept?'})`.execute(trx);
        await sql`insert into begin_row (name) values (${'kept?'})`.execute(trx); // unique: refused
      }),
    ).rejects.toThrow(/begin_row_name_key/);
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into begin_row (name) values (${null})`.execute(trx); // the first statement fails
      }),
    ).rejects.toThrow(/not-null/);
    expect(await names()).toEqual([]);
    await db
      .transaction()
      .execute((trx) => sql`insert into begin_row (name) values (${'after'})`.execute(trx));
    expect(await names()).toEqual(['after']);
  });

  it('goes alone, first, when the statement cannot carry it (a binary value, quoted text of its own)', async () => {
    const sent = await roundTrips(() =>
      db.transaction().execute(async (trx) => {
        await sql`insert into begin_row (name, data) values (${'bytes'}, ${Buffer.from([0, 1, 255])})`.execute(
          trx,
        );
        await sql`insert into begin_row (name) values ('quoted')`.execute(trx);
      }),
    );
    expect(sent).toEqual([
      'begin',
      'insert into begin_row (name, data) values ($1, $2)',
      "insert into begin_row (name) values ('quoted')",
      'commit',
    ]);
    const { rows } = await sql<{ data: Buffer | null }>`select data from begin_row order by id`.execute(db);
    expect(rows.map((r) => r.data && [...r.data])).toEqual([[0, 1, 255], null]);
  });

  it('is not sent by a transaction that sends nothing, nor its COMMIT', async () => {
    const sent = await roundTrips(() => db.transaction().execute(async () => 'nothing'));
    expect(sent).toEqual([]);
  });

  it('comes before a stream that is the first statement: the stream reads inside the transaction', async () => {
    const times = await db.transaction().execute(async (trx) => {
      const streamed: Date[] = [];
      for await (const row of trx.selectNoFrom(sql<Date>`now()`.as('now')).stream()) streamed.push(row.now);
      await sql`select pg_sleep(0.02)`.execute(trx);
      const later = await trx.selectNoFrom(sql<Date>`now()`.as('now')).executeTakeFirstOrThrow();
      return [...streamed, later.now];
    });
    // now() is the transaction's start: one transaction, one time.
    expect(times).toHaveLength(2);
    expect(times[0]?.getTime()).toBe(times[1]?.getTime());
  });
});

describe('parametersAsLiterals', () => {
  it('writes each parameter as pg would send it, as an untyped literal', () => {
    expect(
      parametersAsLiterals('select $1, $2, $3, $4, $10', ["it's", 5, null, ['a', 'b'], 0, 0, 0, 0, 0, true]),
    ).toBe(`select 'it''s', '5', null, '{"a","b"}', 'true'`);
  });

  it('declines a binary value, a NUL, a missing parameter and text with quotes, dollar quotes or comments', () => {
    expect(parametersAsLiterals('select $1', [Buffer.from('x')])).toBeUndefined();
    expect(parametersAsLiterals('select $1', ['a\u0000b'])).toBeUndefined();
    expect(parametersAsLiterals('select $2', ['x'])).toBeUndefined();
    expect(parametersAsLiterals(`select '$1'`, ['x'])).toBeUndefined();
    expect(parametersAsLiterals('select $$ $1 $$', ['x'])).toBeUndefined();
    expect(parametersAsLiterals('select 1 -- $1', ['x'])).toBeUndefined();
    expect(parametersAsLiterals('/* prepared */ select $1', ['x'])).toBeUndefined();
    expect(parametersAsLiterals('select $1, $2', ['abc', 'def'], 5)).toBeUndefined();
    expect(parametersAsLiterals('select $1, $2', ['abc', 'de'], 5)).toBe(`select 'abc', 'de'`);
  });
});
