import { startPrivatePgBouncer } from '@newsroom/test-support';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { insertAdmin } from '../support/dashboard-accounts';
import { createTestApp } from '../support/test-app';

// Issue 33: PgBouncer (transaction mode) between the API and Postgres is SIGKILLed while writers are creating
// articles, and started again on the same port. Every write the API acknowledged (201) is in the database; the
// writes caught in the gap get a 503 (never a 500); the API recovers without a restart. Waits bounded.

vi.setConfig({ testTimeout: 60_000 });

const pgbouncer = await startPrivatePgBouncer(inject('pgServerUrl'));
let directUrl = '';
const { app, db, close } = await createTestApp({
  routeDatabase: (url) => {
    directUrl = url;
    return pgbouncer.through(url);
  },
  env: {
    DATABASE_PREPARED_STATEMENTS: 'off',
    // Read after routeDatabase ran: LISTEN needs a session, so it goes to Postgres itself.
    get DATABASE_DIRECT_URL() {
      return directUrl;
    },
    DATABASE_CONNECT_TIMEOUT_MS: '1000',
    DATABASE_STATEMENT_TIMEOUT_MS: '2000',
    DATABASE_QUERY_TIMEOUT_MS: '3000',
  },
});
afterAll(async () => {
  await close();
  await pgbouncer.stop();
});
const admin = await insertAdmin(app, db);

describe('PgBouncer restarted mid-writes', () => {
  it('loses no acknowledged write, answers 503 in the gap, and recovers without an API restart', async () => {
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    let stop = false;
    const writer = async (lane: number) => {
      while (!stop) {
        const title = `Lane ${lane} write ${sent++}`;
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/article',
          headers: { authorization: `Bearer ${admin.token}` },
          payload: { title, body: `<p>${title}</p>` },
        });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (response.statusCode === 201) acknowledged.push(response.json().id);
        else
          expect(response.json(), `${response.statusCode} ${response.body}`).toMatchObject({
            statusCode: 503,
          });
      }
    };
    const ackedAtLeast = async (count: number, what: string) => {
      for (const deadline = Date.now() + 30_000; acknowledged.length < count; ) {
        if (Date.now() > deadline)
          throw new Error(`${what}: ${acknowledged.length} of ${count} writes in 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const writers = Promise.all([1, 2, 3, 4].map(writer));
    try {
      await ackedAtLeast(20, 'before the restart');
      await pgbouncer.restart();
      const atRestart = acknowledged.length;
      // Recovered: more writes acknowledged through the new PgBouncer, by the same API process.
      await ackedAtLeast(atRestart + 20, 'after the restart');
    } finally {
      stop = true;
      await writers;
    }

    const stored = await db.selectFrom('articles').select('id').where('id', 'in', acknowledged).execute();
    expect(stored).toHaveLength(acknowledged.length);
    expect([...statuses.keys()].every((status) => status === 201 || status === 503)).toBe(true);
  });
});
