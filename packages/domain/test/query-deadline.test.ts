import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, isDatabaseUnavailable } from '../src';

// The client-side query deadline, with a statement Postgres is still running (pg_sleep) standing in for a
// connection that does not answer. One connection in the pool: whatever reuses it would wait behind it.
const { url, destroy } = await createTestDatabase();
const db = createDb({
  connectionString: url,
  max: 1,
  timeouts: { connectMs: 2_000, statementMs: 0, queryMs: 300, idleInTransactionMs: 0 },
});
afterAll(async () => {
  await db.destroy();
  await destroy();
});

const backendPid = async () =>
  (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]?.pid;

describe('a query with no answer within DATABASE_QUERY_TIMEOUT_MS', () => {
  it('fails as "database unavailable", and its connection is discarded, not handed out again', async () => {
    const before = await backendPid();
    const started = Date.now();
    const error = await sql`select pg_sleep(3)`.execute(db).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(isDatabaseUnavailable(error)).toBe(true);

    const afterStarted = Date.now();
    const after = await backendPid();
    expect(after).not.toBe(before);
    expect(Date.now() - afterStarted).toBeLessThan(1_000);
  });

  it('bounds each round trip of a stream, not the whole stream', async () => {
    let rows = 0;
    const stream = db
      .selectFrom(sql<{ n: number }>`generate_series(1, 50)`.as('g'))
      .select(sql<number>`g`.as('n'))
      .stream(10);
    for await (const _row of stream) {
      rows++;
      // A slow reader: the whole stream takes well over the 300 ms deadline.
      if (rows % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(rows).toBe(50);

    const hung = db
      .selectFrom(sql<{ n: number }>`(select 1 as n from pg_sleep(3))`.as('s'))
      .selectAll()
      .stream(10);
    const started = Date.now();
    const error = await (async () => {
      for await (const _row of hung) {
        // unreachable: the first read never answers in time
      }
    })().catch((caught: unknown) => caught);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await backendPid()).toEqual(expect.any(Number));
  });
});

describe('isDatabaseUnavailable', () => {
  it.each([
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['a pool checkout timeout', new Error('timeout exceeded when trying to connect')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    [
      'a statement timeout',
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    ],
    ['too many connections', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
    ['a server shutting down', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    ['every address refused', new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })])],
    ['a garbled stream', new Error('received invalid response: ff')],
    ['an answer to no query', new Error('Received unexpected dataRow message from backend.')],
    ['a protocol violation', Object.assign(new Error('invalid frontend message type 0'), { code: '08P01' })],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a syntax error', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['a plain bug', new TypeError('x is undefined')],
    ['no error at all', undefined],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
