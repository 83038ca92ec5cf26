import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type InsertedRow, runUnitOfWork, type UnitOfWork } from '../src/db/unit-of-work';

// The database driver closes a running unit of work with the unit's first writing transaction, in the round trip
// of its COMMIT (db/unit-of-work-driver.ts); the audit log's row is one such unit (audit-unit.ts).

const { db, destroy } = await createTestDatabase();
afterAll(destroy);
await sql`create table uow_change (id uuid primary key default gen_random_uuid(), name text not null unique)`.execute(
  db,
);
await sql`create table uow_closing (name text not null, created uuid)`.execute(db);
beforeEach(async () => {
  await sql`truncate uow_change, uow_closing`.execute(db);
});

/** A unit whose closing statement records `name` and the first row the transaction inserted. */
class Recording implements UnitOfWork {
  closed = false;
  reopened: unknown[] = [];
  constructor(readonly name: string) {}
  get owed() {
    return !this.closed;
  }
  close(inserted: readonly InsertedRow[]) {
    this.closed = true;
    const created = inserted[0]?.id;
    return `insert into uow_closing values ('${this.name}', ${created ? `'${created}'` : 'null'})`;
  }
  reopen(error: unknown) {
    this.closed = false;
    this.reopened.push(error);
    return new Error(`closing failed: ${(error as Error).message}`);
  }
}

const closings = () =>
  db
    .selectFrom('uow_closing' as never)
    .selectAll()
    .execute() as Promise<unknown[]>;
const changes = () =>
  db
    .selectFrom('uow_change' as never)
    .select('name' as never)
    .execute() as Promise<{ name: string }[]>;
const insertChange = (executor: typeof db, name: string) =>
  sql<{ id: string }>`insert into uow_change (name) values (${name}) returning id`.execute(executor);

describe('a unit of work', () => {
  it('closes with its first writing transaction, naming the row that transaction inserted', async () => {
    const unit = new Recording('first');
    const id = await runUnitOfWork(unit, async () => {
      await db.transaction().execute((trx) => sql`select 1`.execute(trx)); // reads only: not closed
      const created = await db.transaction().execute((trx) =>
        trx
          .insertInto('uow_change' as never)
          .values({ name: 'a' } as never)
          .returning('id' as never)
          .executeTakeFirstOrThrow(),
      );
      await db.transaction().execute((trx) => insertChange(trx, 'b')); // already closed
      return (created as { id: string }).id;
    });
    expect(unit.closed).toBe(true);
    expect(await closings()).toEqual([{ name: 'first', created: id }]);
  });

  it('makes a lone write a transaction with the closing statement, and skips a write that matched nothing', async () => {
    const unit = new Recording('lone');
    await runUnitOfWork(unit, async () => {
      await sql`update uow_change set name = 'x' where name = 'nobody'`.execute(db);
      expect(unit.closed).toBe(false);
      await sql`insert into uow_change (name) values ('c')`.execute(db);
    });
    expect(await closings()).toMatchObject([{ name: 'lone' }]);
    expect(await changes()).toEqual([{ name: 'c' }]);
  });

  it('rolls the change back when its closing statement fails, and stays owed', async () => {
    const unit = new Recording("it's broken"); // the quote breaks the closing statement's SQL
    await expect(runUnitOfWork(unit, () => insertChange(db, 'd'))).rejects.toThrow(/closing failed/);
    await expect(
      runUnitOfWork(unit, () => db.transaction().execute((trx) => insertChange(trx, 'e'))),
    ).rejects.toThrow(/closing failed/);
    expect(unit.owed).toBe(true);
    expect(await changes()).toEqual([]);
    expect(await closings()).toEqual([]);
    // The connections are fit for the next transaction.
    await insertChange(db, 'f');
    expect(await changes()).toEqual([{ name: 'f' }]);
  });

  it('writes nothing of its own when the change fails, and leaves work outside a unit alone', async () => {
    const unit = new Recording('failed');
    await insertChange(db, 'g');
    await expect(
      runUnitOfWork(unit, () =>
        db.transaction().execute(async (trx) => {
          await insertChange(trx, 'h');
          await insertChange(trx, 'g'); // unique violation
        }),
      ),
    ).rejects.toThrow();
    expect(await closings()).toEqual([]);
    expect((await changes()).map((row) => row.name)).toEqual(['g']);
  });
});
