import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ContentNotifications, parseContentChange } from '../../src/delivery/content-notifications';
import { VersionedMemo } from '../../src/delivery/versioned-memo';
import { insertArticle, insertSite } from '../support/content-fixtures';

const database = await createTestDatabase();
// A long retry delay keeps the connection down after we cut it, so the outage can be observed.
const notifications = new ContentNotifications({ connectionString: database.url, retryMs: 60_000 });
await notifications.start();
afterAll(async () => {
  await notifications.close();
  await database.destroy();
});

const soon = { timeout: 1_000, interval: 10 };
const network = null;
const siteA = await insertSite(database.db, 'site-a');
const siteB = await insertSite(database.db, 'site-b');

/** A memo and a counter of its loads per key: `read(scope, key)` answers the load number that produced it. */
function countingMemo() {
  const memo = new VersionedMemo<number>(notifications, { max: 100 });
  const loads = new Map<string, number>();
  const read = (scope: string | null, key: string) =>
    memo.get(scope, key, async () => {
      const count = (loads.get(key) ?? 0) + 1;
      loads.set(key, count);
      return count;
    });
  return read;
}

/**
 * Resolves once this replica has heard of every change committed so far: a marker notification naming a
 * site that does not exist (it retires network-wide entries, as any change does, and no real site's).
 */
async function heardEverything() {
  const marker = `marker-${Math.random()}`;
  await sql`select pg_notify('content_changed', ${`${marker}:no-such-site`})`.execute(database.db);
  await expect.poll(() => notifications.tokenOf(network), soon).toBe(marker);
}

describe('parseContentChange', () => {
  it('reads a bare transaction id as a change of everything, and a list as those sites', () => {
    expect(parseContentChange('812')).toEqual({ token: '812', siteIds: 'all' });
    expect(parseContentChange('812:a,b')).toEqual({ token: '812', siteIds: ['a', 'b'] });
    expect(parseContentChange('812:')).toEqual({ token: '812', siteIds: [] });
  });
});

describe('ContentNotifications and VersionedMemo', () => {
  it('memoises while nothing changes and forgets on a committed change, not on a rolled-back one', async () => {
    const read = countingMemo();
    expect(await read(siteB, 'k')).toBe(1);
    expect(await read(siteB, 'k')).toBe(1);

    await database.db
      .transaction()
      .execute(async (tx) => {
        await tx.insertInto('sites').values({ slug: 'rolled-back', name: 'x' }).execute();
        throw new Error('roll back');
      })
      .catch(() => {});
    await heardEverything();
    expect(await read(siteB, 'k')).toBe(1);

    await database.db.insertInto('sites').values({ slug: 'committed', name: 'x' }).execute();
    await heardEverything();
    expect(await read(siteB, 'k')).toBe(2);
  });

  it('shares one load between concurrent misses', async () => {
    const memo = new VersionedMemo<number>(notifications, { max: 10 });
    let loads = 0;
    const slow = () => new Promise<number>((resolve) => setTimeout(() => resolve(++loads), 20));
    expect(
      await Promise.all([memo.get(siteA, 'k', slow), memo.get(siteA, 'k', slow), memo.get(siteA, 'k', slow)]),
    ).toEqual([1, 1, 1]);
  });

  it("retires a changed site's entries and the network's, and keeps other sites'", async () => {
    const read = countingMemo();
    for (const [scope, key] of [
      [siteA, 'a'],
      [siteB, 'b'],
      [network, 'n'],
    ] as const) {
      expect(await read(scope, key)).toBe(1);
    }
    await insertArticle(database.db, { slug: 'on-a', siteIds: [siteA] });
    await heardEverything();
    expect(await read(siteA, 'a')).toBe(2);
    expect(await read(network, 'n')).toBe(2);
    expect(await read(siteB, 'b')).toBe(1);

    // A site change (rename) concerns everything.
    await database.db.updateTable('sites').set({ name: 'renamed' }).where('id', '=', siteA).execute();
    await heardEverything();
    expect(await read(siteB, 'b')).toBe(2);
  });

  it('names every site an article edit, a host change or a deletion concerns', async () => {
    const article = await insertArticle(database.db, { slug: 'on-both', siteIds: [siteA, siteB] });
    await heardEverything();
    const read = countingMemo();
    const bothReloaded = async (expected: number) => {
      await heardEverything();
      expect([await read(siteA, 'a'), await read(siteB, 'b')]).toEqual([expected, expected]);
    };
    await bothReloaded(1);
    await database.db.updateTable('articles').set({ title: 'Edited' }).where('id', '=', article.id).execute();
    await bothReloaded(2);
    await database.db.deleteFrom('article_sites').where('article_id', '=', article.id).execute();
    await bothReloaded(3);
    await database.db
      .insertInto('article_sites')
      .values([siteA, siteB].map((site_id) => ({ article_id: article.id, site_id })))
      .execute();
    await bothReloaded(4);
    await database.db.deleteFrom('articles').where('id', '=', article.id).execute();
    await bothReloaded(5);
  });

  it('falls back to everything when a statement concerns more sites than a payload holds', async () => {
    const many = await database.db
      .insertInto('sites')
      .values(Array.from({ length: 101 }, (_, i) => ({ slug: `many-${i}`, name: 'x' })))
      .returning('id')
      .execute();
    const article = await insertArticle(database.db, { slug: 'everywhere', siteIds: [] });
    await heardEverything();
    const read = countingMemo();
    expect(await read(siteB, 'b')).toBe(1);
    await database.db
      .insertInto('article_sites')
      .values(many.map(({ id }) => ({ article_id: article.id, site_id: id })))
      .execute();
    await heardEverything();
    expect(await read(siteB, 'b')).toBe(2);
  });

  it("names a site's content state after the last transaction that changed it", async () => {
    const before = notifications.tokenOf(siteA);
    const otherBefore = notifications.tokenOf(siteB);
    await insertArticle(database.db, { slug: 'tokened', siteIds: [siteA] });
    await heardEverything();
    expect(notifications.tokenOf(siteA)).toMatch(/\.[0-9]+$/);
    expect(notifications.tokenOf(siteA)).not.toBe(before);
    expect(notifications.tokenOf(siteB)).toBe(otherBefore);
  });

  it('bypasses the memo while the connection is down', async () => {
    const read = countingMemo();
    await read(siteA, 'k');
    expect(notifications.healthy).toBe(true);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
               where application_name = 'newsroom-api-changes' and datname = current_database()`.execute(
      database.db,
    );
    await expect.poll(() => notifications.healthy, soon).toBe(false);
    expect(notifications.tokenOf(network)).toBeNull();
    expect(await read(siteA, 'k')).toBe(2);
    expect(await read(siteA, 'k')).toBe(3);
  });
});
