import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from './support/content-fixtures';
import { bearer, insertAdmin } from './support/dashboard-accounts';
import { grant, insertStaff } from './support/policy/staff-fixtures';
import { createTestApp } from './support/test-app';

// No SMTP_URL, not production: mail goes to the development outbox.
const testApp = await createTestApp();
const { app, db } = testApp;
afterAll(testApp.close);

const admin = await insertAdmin(app, db);
const siteA = await insertSite(db, 'team-site-a');
const siteB = await insertSite(db, 'team-site-b');
const password = 'a long enough password';

const signInWithCookie = async (email: string) => {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/session',
    payload: { email, password },
  });
  expect(response.statusCode).toBe(200);
  const cookie = response.cookies.find((c) => c.name === 'newsroom_session');
  return { cookie: `newsroom_session=${cookie?.value}`, csrf: response.json().csrfToken as string };
};

describe('suspending and deleting staff users', () => {
  it('ends bearer tokens and cookie sessions at once, and lets the user back in once reinstated', async () => {
    const editor = await insertStaff(app, db, 'editor', { password });
    await grant(db, editor.id, siteA, 'editor');
    const session = await signInWithCookie(editor.email);
    expect((await app.inject({ url: '/api/v1/article', headers: bearer(editor.token) })).statusCode).toBe(
      200,
    );
    expect(
      (await app.inject({ url: '/api/v1/article', headers: { cookie: session.cookie } })).statusCode,
    ).toBe(200);

    const suspended = await app.inject({
      method: 'PUT',
      url: `/api/v1/users/${editor.id}/suspend`,
      headers: bearer(admin.token),
    });
    expect(suspended.json()).toMatchObject({ suspended: true });
    expect((await app.inject({ url: '/api/v1/article', headers: bearer(editor.token) })).statusCode).toBe(
      401,
    );
    expect(
      (await app.inject({ url: '/api/v1/article', headers: { cookie: session.cookie } })).statusCode,
    ).toBe(401);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: editor.email, password },
        })
      ).statusCode,
    ).toBe(401);

    await app.inject({
      method: 'PUT',
      url: `/api/v1/users/${editor.id}/reinstate`,
      headers: bearer(admin.token),
    });
    expect((await app.inject({ url: '/api/v1/article', headers: bearer(editor.token) })).statusCode).toBe(
      200,
    );
  });

  it('deletes a user for good but keeps its articles', async () => {
    const contributor = await insertStaff(app, db, 'contributor', { password });
    await grant(db, contributor.id, siteA, 'contributor');
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/article',
      headers: bearer(contributor.token),
      payload: { title: 'Kept after deletion', hostSites: ['team-site-a'] },
    });
    expect(created.json().createdBy).toBe(contributor.id);
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${contributor.id}`,
      headers: bearer(admin.token),
    });
    expect(deleted.statusCode).toBe(204);
    expect(
      (await app.inject({ url: '/api/v1/auth/me', headers: bearer(contributor.token) })).statusCode,
    ).toBe(401);
    const article = await app.inject({
      url: `/api/v1/article/${created.json().id}`,
      headers: bearer(admin.token),
    });
    expect(article.json()).toMatchObject({ title: 'Kept after deletion', createdBy: contributor.id });
    const team = (await app.inject({ url: '/api/v1/users', headers: bearer(admin.token) })).json().data;
    expect(team.map((member: { id: string }) => member.id)).not.toContain(contributor.id);
  });

  it('keeps the last administrator, and an administrator from suspending itself', async () => {
    const self = await app.inject({
      method: 'PUT',
      url: `/api/v1/users/${admin.id}/suspend`,
      headers: bearer(admin.token),
    });
    expect(self.json().code).toBe('CANNOT_SUSPEND_SELF');
    const demoted = await app.inject({
      method: 'PUT',
      url: `/api/v1/users/${admin.id}`,
      headers: bearer(admin.token),
      payload: { role: 'editor', grants: [] },
    });
    expect(demoted.statusCode).toBe(409);
    expect(demoted.json().code).toBe('LAST_ADMINISTRATOR');
  });
});

describe('roles and grants', () => {
  it('applies a change of grants on the next request', async () => {
    const editor = await insertStaff(app, db, 'editor');
    await grant(db, editor.id, siteA, 'editor');
    const onB = await insertArticle(db, { status: 'draft', siteIds: [siteB] });
    const publish = () =>
      app.inject({ method: 'PUT', url: `/api/v1/article/publish/${onB.id}`, headers: bearer(editor.token) });
    expect((await publish()).statusCode).toBe(403);
    const changed = await app.inject({
      method: 'PUT',
      url: `/api/v1/users/${editor.id}`,
      headers: bearer(admin.token),
      payload: { role: 'editor', grants: [{ siteId: siteB, role: 'editor' }] },
    });
    expect(changed.json().grants).toEqual([{ siteId: siteB, siteSlug: 'team-site-b', role: 'editor' }]);
    expect((await publish()).statusCode).toBe(200);
    const permissions = (
      await app.inject({ url: '/api/v1/auth/permissions', headers: bearer(editor.token) })
    ).json();
    expect(permissions.grants).toEqual([{ siteId: siteB, siteSlug: 'team-site-b', role: 'editor' }]);
    expect(permissions.rows).toContainEqual({
      operationId: 'publishArticle',
      caller: 'editor',
      scope: 'article',
    });
  });

  it("filters an editor's list in the query: only articles of its sites, counts and pages included", async () => {
    const editor = await insertStaff(app, db, 'editor');
    const site = await insertSite(db, 'team-site-list');
    const other = await insertSite(db, 'team-site-other');
    await grant(db, editor.id, site, 'editor');
    for (let i = 0; i < 3; i += 1) await insertArticle(db, { status: 'draft', siteIds: [site] });
    for (let i = 0; i < 5; i += 1) await insertArticle(db, { status: 'draft', siteIds: [other] });
    const list = (await app.inject({ url: '/api/v1/article?limit=2', headers: bearer(editor.token) })).json();
    expect(list.meta.pagination.total).toBe(3);
    expect(list.data).toHaveLength(2);
    expect(
      list.data.every((article: { hostSites: string[] }) => article.hostSites.includes('team-site-list')),
    ).toBe(true);
  });
});

describe('submitting for review', () => {
  it("puts a contributor's draft in its editors' queue, sent back with a note, then approved", async () => {
    const contributor = await insertStaff(app, db, 'contributor');
    const editor = await insertStaff(app, db, 'editor');
    const outsider = await insertStaff(app, db, 'editor');
    const site = await insertSite(db, 'team-site-review');
    await grant(db, contributor.id, site, 'contributor');
    await grant(db, editor.id, site, 'editor');
    await grant(db, outsider.id, siteB, 'editor');
    const draft = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/article',
        headers: bearer(contributor.token),
        payload: { title: 'For review', hostSites: ['team-site-review'] },
      })
    ).json();
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: `/api/v1/article/publish/${draft.id}`,
          headers: bearer(contributor.token),
        })
      ).statusCode,
    ).toBe(403);
    const submitted = await app.inject({
      method: 'PUT',
      url: `/api/v1/article/submit/${draft.id}`,
      headers: bearer(contributor.token),
    });
    expect(submitted.json()).toMatchObject({ status: 'pending', submittedBy: contributor.id });

    const queue = (
      await app.inject({ url: '/api/v1/article/pending', headers: bearer(editor.token) })
    ).json();
    expect(queue.data.map((article: { id: string }) => article.id)).toContain(draft.id);
    const elsewhere = (
      await app.inject({ url: '/api/v1/article/pending', headers: bearer(outsider.token) })
    ).json();
    expect(elsewhere.data.map((article: { id: string }) => article.id)).not.toContain(draft.id);

    const sentBack = await app.inject({
      method: 'PUT',
      url: `/api/v1/article/send-back/${draft.id}`,
      headers: bearer(editor.token),
      payload: { reason: 'Needs a second source' },
    });
    expect(sentBack.json()).toMatchObject({ status: 'draft', reviewReason: 'Needs a second source' });
    const mine = await app.inject({ url: `/api/v1/article/${draft.id}`, headers: bearer(contributor.token) });
    expect(mine.json().reviewReason).toBe('Needs a second source');

    await app.inject({
      method: 'PUT',
      url: `/api/v1/article/submit/${draft.id}`,
      headers: bearer(contributor.token),
    });
    const approved = await app.inject({
      method: 'PUT',
      url: `/api/v1/article/approve/${draft.id}`,
      headers: bearer(editor.token),
    });
    expect(approved.json().status).toBe('published');
  });
});

describe('the development outbox', () => {
  it('shows each invitation with its link when no SMTP is configured', async () => {
    const invited = await app.inject({
      method: 'POST',
      url: '/api/v1/users/invitations',
      headers: bearer(admin.token),
      payload: {
        email: 'outbox@example.com',
        role: 'reviewer',
        grants: [{ siteId: siteA, role: 'reviewer' }],
      },
    });
    expect(invited.statusCode).toBe(201);
    const outbox = await app.inject('/dev/outbox');
    expect(outbox.statusCode).toBe(200);
    expect(outbox.body).toContain('outbox@example.com');
    expect(outbox.body).toMatch(/\/invitation\/[A-Za-z0-9_-]{43}/);
  });
});
