import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from './support/content-fixtures';
import { grant, insertStaff } from './support/policy/staff-fixtures';
import { createTestApp } from './support/test-app';

// A staff user changes an article's host sites only where they hold a role that allows the change: each site
// the request adds or takes off needs one; the sites the article stays on do not (an editor of one site may
// add the story to another of theirs although a third site they have no grant on also carries it).

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);

const [mine, alsoMine, theirs] = await Promise.all(
  ['grants-mine', 'grants-also-mine', 'grants-theirs', 'grants-another'].map((slug) => insertSite(db, slug)),
);
const editor = await insertStaff(app, db, 'editor');
await grant(db, editor.id, mine as string, 'editor');
await grant(db, editor.id, alsoMine as string, 'editor');

const call = (method: 'POST' | 'PUT', url: string, payload: object) =>
  app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${editor.token}` }, payload });
const setHostSites = (id: string, hostSites: string[]) =>
  call('POST', `/article/host-site/${id}`, { hostSites });
const hostSitesOf = async (id: string) =>
  (
    await db
      .selectFrom('article_sites')
      .innerJoin('sites', 'sites.id', 'article_sites.site_id')
      .select('sites.slug')
      .where('article_id', '=', id)
      .orderBy('sites.slug')
      .execute()
  ).map((row) => row.slug);

describe("an article's host sites, changed by an editor of some of them", () => {
  it('adds a site of theirs while one they hold no grant on stays', async () => {
    const { id } = await insertArticle(db, { status: 'draft', siteIds: [mine as string, theirs as string] });
    const answer = await setHostSites(id, ['grants-mine', 'grants-theirs', 'grants-also-mine']);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await hostSitesOf(id)).toEqual(['grants-also-mine', 'grants-mine', 'grants-theirs']);
    // The list in another order is no change.
    expect((await setHostSites(id, ['grants-theirs', 'grants-also-mine', 'grants-mine'])).statusCode).toBe(
      200,
    );
  });

  it('refuses to take the article off a site they hold no grant on, or to put it on one', async () => {
    const { id } = await insertArticle(db, { status: 'draft', siteIds: [mine as string, theirs as string] });
    const off = await setHostSites(id, ['grants-mine']);
    expect(off.statusCode).toBe(403);
    expect(off.json().code).toBe('FORBIDDEN');
    const on = await setHostSites(id, ['grants-mine', 'grants-theirs', 'grants-another']);
    expect(on.statusCode).toBe(403);
    expect(await hostSitesOf(id)).toEqual(['grants-mine', 'grants-theirs']);
    // Its text saves as before (no host-site list in that request).
    expect((await call('PUT', `/article/${id}`, { title: 'Retitled' })).statusCode).toBe(200);
  });

  it('still needs a role on every site of a new article', async () => {
    const created = await call('POST', '/article', {
      title: 'New',
      hostSites: ['grants-mine', 'grants-theirs'],
    });
    expect(created.statusCode).toBe(403);
    const ours = await call('POST', '/article', {
      title: 'New',
      hostSites: ['grants-mine', 'grants-also-mine'],
    });
    expect(ours.statusCode, ours.body).toBe(201);
  });
});
