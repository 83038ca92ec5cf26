import { editArticle } from '@newsroom/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  insertArticle,
  insertSite,
  issueSiteKey,
  minutesAgo,
  retitleWithoutTriggers,
} from './content-fixtures';
import { type TestApp, testApiKey } from './test-app';

// A change retires the cached responses of the sites it concerns (and the network-wide ones), not the
// others': a silent change (triggers off) on the untouched site proves its answer still comes from memory.
// Run on one database (client/selective-invalidation.test.ts) and with the client reads on a lagging streaming
// replica (replica/read-replica.test.ts), where a refill after a NOTIFY must not read the replica's old rows.

/** The selective invalidation behaviour of `testApp` (its `db`: where the test writes, the primary). */
export function describeSelectiveInvalidation(testApp: TestApp): void {
  describe('selective invalidation', () => {
    const { app, db } = testApp;
    let changing: string;
    let untouched: string;
    let changingKey: string;
    let untouchedKey: string;
    let onChanging: { id: string };
    beforeAll(async () => {
      changing = await insertSite(db, 'changing');
      untouched = await insertSite(db, 'untouched');
      changingKey = (await issueSiteKey(db, changing)).key;
      untouchedKey = (await issueSiteKey(db, untouched)).key;
      onChanging = await insertArticle(db, {
        slug: 'on-changing',
        siteIds: [changing],
        publishedAt: minutesAgo(5),
      });
      await insertArticle(db, { slug: 'on-untouched', siteIds: [untouched], publishedAt: minutesAgo(6) });
    });

    const get = (url: string, key: string) =>
      app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });
    const titles = async (url: string, key: string) =>
      (await get(url, key)).json().data.map((article: { title: string }) => article.title);
    const soon = { timeout: 1_000, interval: 20 };

    /** Reads every URL twice (the second from the cache) for both keys. */
    async function prime() {
      for (const key of [changingKey, untouchedKey, testApiKey]) {
        for (const url of ['/posts', '/article/on-changing', '/article/on-untouched']) {
          await get(url, key);
          await get(url, key);
        }
      }
    }

    it("keeps serving an untouched site's cached page and article while another site changes", async () => {
      await prime();
      await retitleWithoutTriggers(db, 'on-untouched', 'Silently retitled');

      // A publish on the changing site, and an edit of its article: visible there at once.
      await insertArticle(db, { slug: 'breaking', siteIds: [changing], title: 'Breaking' });
      await editArticle(db, onChanging.id, { title: 'Edited on changing' });
      await expect
        .poll(() => titles('/posts', changingKey), soon)
        .toEqual(['Breaking', 'Edited on changing']);
      expect((await get('/article/on-changing', changingKey)).json().title).toBe('Edited on changing');

      // The untouched site still gets its cached answers: the silent retitle stays unseen.
      expect(await titles('/posts', untouchedKey)).toEqual(['Title of on-untouched']);
      expect((await get('/article/on-untouched', untouchedKey)).json().title).toBe('Title of on-untouched');

      // The network key's listing spans every site: it was retired, so it shows both changes.
      expect(await titles('/posts', testApiKey)).toEqual(
        expect.arrayContaining(['Breaking', 'Edited on changing', 'Silently retitled']),
      );
    });

    it('retires both sites when an article moves from one to the other', async () => {
      const moving = await insertArticle(db, {
        slug: 'moving',
        siteIds: [changing],
        publishedAt: minutesAgo(1),
      });
      await expect.poll(() => titles('/posts', changingKey), soon).toContain('Title of moving');
      await prime();
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('article_sites').where('article_id', '=', moving.id).execute();
        await tx.insertInto('article_sites').values({ article_id: moving.id, site_id: untouched }).execute();
        await tx
          .updateTable('articles')
          .set({ updated_at: new Date() })
          .where('id', '=', moving.id)
          .execute();
      });
      await expect.poll(() => titles('/posts', changingKey), soon).not.toContain('Title of moving');
      await expect.poll(() => titles('/posts', untouchedKey), soon).toContain('Title of moving');
      expect((await get('/article/moving', untouchedKey)).statusCode).toBe(200);
      expect((await get('/article/moving', changingKey)).statusCode).toBe(404);
    });

    it('retires every site on a change of a site itself', async () => {
      await prime();
      await retitleWithoutTriggers(db, 'on-untouched', 'Seen after a site change');
      await db.updateTable('sites').set({ name: 'Renamed' }).where('id', '=', changing).execute();
      await expect
        .poll(async () => (await get('/article/on-untouched', untouchedKey)).json().title, soon)
        .toBe('Seen after a site change');
    });
  });
}
