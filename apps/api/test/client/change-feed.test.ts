import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ChangeFeed } from '../../src/client/change-feed';
import { VersionedMemo } from '../../src/client/versioned-memo';

const database = await createTestDatabase();
// A long retry delay keeps the feed down after we cut it, so the outage can be observed.
const feed = new ChangeFeed({ connectionString: database.url, retryMs: 60_000 });
await feed.start();
afterAll(async () => {
  await feed.close();
  await database.destroy();
});

const soon = { timeout: 1_000, interval: 10 };

describe('ChangeFeed and VersionedMemo', () => {
  it('memoises while nothing changes and forgets on a committed change, not on a rolled-back one', async () => {
    const memo = new VersionedMemo<number>(feed, { max: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await memo.get('k', load)).toBe(1);
    expect(await memo.get('k', load)).toBe(1);

    await database.db
      .transaction()
      .execute(async (tx) => {
        await tx.insertInto('sites').values({ slug: 'rolled-back', name: 'x' }).execute();
        throw new Error('roll back');
      })
      .catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await memo.get('k', load)).toBe(1);

    const before = feed.generation;
    await database.db.insertInto('sites').values({ slug: 'committed', name: 'x' }).execute();
    await expect.poll(() => feed.generation, soon).toBeGreaterThan(before);
    expect(await memo.get('k', load)).toBe(2);
  });

  it('shares one load between concurrent misses', async () => {
    const memo = new VersionedMemo<number>(feed, { max: 10 });
    let loads = 0;
    const slow = () => new Promise<number>((resolve) => setTimeout(() => resolve(++loads), 20));
    expect(await Promise.all([memo.get('k', slow), memo.get('k', slow), memo.get('k', slow)])).toEqual([
      1, 1, 1,
    ]);
  });

  it('names the content state with the changing transaction id', async () => {
    const before = feed.token;
    const { rows } = await database.db.transaction().execute(async (tx) => {
      await tx.insertInto('sites').values({ slug: 'tokened', name: 'x' }).execute();
      return sql<{ txid: string }>`select txid_current()::text as txid`.execute(tx);
    });
    await expect.poll(() => feed.token, soon).toBe(rows[0]?.txid);
    expect(feed.token).not.toBe(before);
  });

  it('bypasses the memo while the connection is down', async () => {
    const memo = new VersionedMemo<number>(feed, { max: 10 });
    let loads = 0;
    const load = async () => ++loads;
    await memo.get('k', load);
    expect(feed.healthy).toBe(true);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
               where application_name = 'newsroom-api-changes' and datname = current_database()`.execute(
      database.db,
    );
    await expect.poll(() => feed.healthy, soon).toBe(false);
    expect(feed.token).toBeNull();
    expect(await memo.get('k', load)).toBe(2);
    expect(await memo.get('k', load)).toBe(3);
  });
});
