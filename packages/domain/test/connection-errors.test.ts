import { createTestDatabase, hostAndPort } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDb, isDatabaseUnavailable } from '../src';
import { fatalMessage, startTamperingProxy } from './support/tampering-postgres-proxy';

// A connection that fails in the very turn pg-pool hands it out: Postgres ending it (a failover, a restart,
// pg_terminate_backend, idle_session_timeout) or a stream that stops making sense. pg-pool removes its own
// 'error' listener at hand-out; with no other listener, pg's 'error' event would crash the process. Here the
// failure is the next thing on the wire after the startup, so it is read in the same turn, every time.

const { url, destroy } = await createTestDatabase();
afterAll(destroy);
const postgres = hostAndPort(inject('pgServerUrl'), 5432);

const urlThrough = (port: number) => {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
};

describe('a connection that fails as it is handed out', () => {
  it.each([
    [
      'terminated by an administrator (57P01)',
      fatalMessage('57P01', 'terminating connection due to administrator command'),
    ],
    ['a protocol violation (08P01)', fatalMessage('08P01', 'invalid frontend message type 0')],
    ['a corrupted stream (an unknown message type)', Buffer.from('\xff\x00\x00\x00\x08garb', 'latin1')],
    [
      'a corrupted stream (a length shorter than its header)',
      Buffer.from('D\x00\x00\x00\x00garbage', 'latin1'),
    ],
    ['a corrupted stream (a data row with no query)', Buffer.from('D\x00\x00\x00\x06\x00\x00', 'latin1')],
  ])('fails the query as "database unavailable" and the process lives on: %s', async (_name, tail) => {
    const proxy = await startTamperingProxy(postgres, tail);
    const db = createDb({
      connectionString: urlThrough(proxy.port),
      max: 2,
      timeouts: { connectMs: 2_000, statementMs: 0, queryMs: 2_000, idleInTransactionMs: 0 },
    });
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const error = await sql`select 1`.execute(db).then(
          () => new Error('the query succeeded on a failed connection'),
          (caught: unknown) => caught,
        );
        expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      }
      expect(proxy.tampered).toBeGreaterThanOrEqual(3);
    } finally {
      await db.destroy();
      await proxy.close();
    }
  });
});
