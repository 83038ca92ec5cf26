import { editArticle, type Listing, listPublishedArticles, replaceArticleSites } from '@newsroom/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { articleInView } from '../../src/delivery/article-view';
import { encodeListingCursor } from '../../src/delivery/listing-cursor';
import { paginationMeta } from '../../src/schemas/pagination.schema';
import {
  insertArticle,
  insertSite,
  issueSiteKey,
  minutesAgo,
  retitleWithoutTriggers,
} from '../support/content-fixtures';
import { createTestApp } from '../support/test-app';

// With the response cache off, every page read asks Postgres for the page's ids and row versions and reuses
// the serialised JSON of the versions it holds. These tests pin down that no change, notified or not, can
// make such a read serve an article's old JSON, and that the assembled page is what the schema would write.
const { app, db, close } = await createTestApp({ env: { CLIENT_CACHE: 'off' } });
afterAll(close);

const east = await insertSite(db, 'east');
const west = await insertSite(db, 'west');
const eastKey = (await issueSiteKey(db, east)).key;
const stories: Array<{ id: string; slug: string }> = [];
for (let i = 0; i < 12; i++) {
  stories.push(
    await insertArticle(db, {
      slug: `story-${i}`,
      siteIds: i % 2 ? [east] : [east, west],
      publishedAt: minutesAgo(i + 1),
      tags: i % 3 ? ['one', 'two'] : [],
    }),
  );
}

const get = (url: string) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': eastKey } });
const eastListing: Listing = {
  siteId: east,
  aggregatedOnly: false,
  tag: null,
  category: null,
  section: null,
};
const articleIn = async (url: string, slug: string) =>
  (await get(url)).json().data.find((article: { slug: string }) => article.slug === slug);

describe('uncached page reads with the article JSON cache', () => {
  it('answer exactly what one query and the response schema give', async () => {
    for (const page of [
      { page: 1, limit: 5 },
      { page: 2, limit: 5 },
      { page: 3, limit: 5 },
      { page: 1, limit: 100 },
    ]) {
      const url = `/posts?page=${page.page}&limit=${page.limit}`;
      // Twice: the first read fills the article cache, the second is served from it.
      for (let round = 0; round < 2; round++) {
        const { items, total } = await listPublishedArticles(db, eastListing, page);
        const last = items.at(-1);
        const more = (page.page - 1) * page.limit + items.length < total;
        const nextCursor =
          more && last ? encodeListingCursor({ publishedAt: last.publishedAt as Date, id: last.id }) : null;
        const pagination = { ...paginationMeta(page, total), nextCursor };
        // As a site key sees them: with their canonical URL on the site (here none: east has no template).
        const data = items.map((item) => articleInView(item, { siteId: east, siteSlug: 'east' }));
        const expected = JSON.stringify({ data, meta: { pagination } });
        const response = await get(url);
        expect(response.statusCode).toBe(200);
        expect(response.body, `${url} round ${round}`).toBe(expected);
      }
    }
  });

  it('show an edit on the very next read', async () => {
    await get('/posts');
    await editArticle(db, stories[0]?.id as string, { title: 'Edited at once' });
    expect((await articleIn('/posts', 'story-0')).title).toBe('Edited at once');
  });

  it('show a change written without triggers or updated_at (the row version still moves)', async () => {
    await get('/posts');
    await retitleWithoutTriggers(db, 'story-1', 'Silent edit');
    expect((await articleIn('/posts', 'story-1')).title).toBe('Silent edit');
  });

  it('show host-site changes, site renames and site deletions in hostSites', async () => {
    expect((await articleIn('/posts', 'story-2')).hostSites).toEqual(['east', 'west']);
    await replaceArticleSites(db, stories[2]?.id as string, [east]);
    expect((await articleIn('/posts', 'story-2')).hostSites).toEqual(['east']);

    expect((await articleIn('/posts', 'story-4')).hostSites).toEqual(['east', 'west']);
    await db.updateTable('sites').set({ slug: 'westward' }).where('id', '=', west).execute();
    expect((await articleIn('/posts', 'story-4')).hostSites).toEqual(['east', 'westward']);

    await db.deleteFrom('sites').where('id', '=', west).execute();
    expect((await articleIn('/posts', 'story-4')).hostSites).toEqual(['east']);
    const { items } = await listPublishedArticles(db, eastListing, { page: 1, limit: 100 });
    expect(items.every((article) => !article.hostSites.includes('westward'))).toBe(true);
  });

  it('touch only the articles of the renamed site', async () => {
    const other = await insertSite(db, 'other');
    const lone = await insertArticle(db, { slug: 'lone', siteIds: [other] });
    const before = await db.selectFrom('articles').select(['id', 'updated_at']).execute();
    await db.updateTable('sites').set({ name: 'East, renamed' }).where('id', '=', east).execute();
    await db.updateTable('sites').set({ slug: 'other-renamed' }).where('id', '=', other).execute();
    const after = new Map(
      (await db.selectFrom('articles').select(['id', 'updated_at']).execute()).map((row) => [row.id, row]),
    );
    for (const row of before) {
      const touched = after.get(row.id)?.updated_at.getTime() !== row.updated_at.getTime();
      expect(touched, row.id).toBe(row.id === lone.id);
    }
  });
});
