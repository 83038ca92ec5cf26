import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, insertSite } from './support/content-fixtures';
import { createDashboardUsers } from './support/dashboard-users';
import { grant, insertStaff } from './support/policy/staff-fixtures';
import { createTestApp } from './support/test-app';

// The scheduling routes over HTTP: what an editor can schedule, move and cancel, and the clear 4xx for what
// cannot be (the worker's side: apps/worker/test/scheduled-actions.test.ts).

const testApp = await createTestApp();
const { app, close } = testApp;
afterAll(close);
const { adminToken, publisherToken } = await createDashboardUsers(testApp);

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token = adminToken) =>
  app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const draft = async (title: string) => (await call('POST', '/article', { title })).json().id as string;

describe('scheduled actions over HTTP', () => {
  it('schedules, lists (also per article), reschedules and cancels an action', async () => {
    const articleId = await draft('Six o’clock story');
    // Entered with an offset, stored and returned in UTC.
    const created = await call('POST', '/scheduled-actions', {
      articleId,
      kind: 'publish',
      dueAt: '2030-06-01T06:00:00+02:00',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      articleId,
      kind: 'publish',
      status: 'scheduled',
      dueAt: '2030-06-01T04:00:00.000Z',
      articleTitle: 'Six o’clock story',
      createdByEmail: expect.any(String),
      ranAt: null,
      latenessMs: null,
    });
    const { id } = created.json();

    const pending = await call('GET', `/scheduled-actions?articleId=${articleId}&status=scheduled`);
    expect(pending.json().data.map((a: { id: string }) => a.id)).toEqual([id]);

    const moved = await call('PUT', `/scheduled-actions/${id}`, { dueAt: '2030-06-02T06:00:00Z' });
    expect(moved.json()).toMatchObject({ id, dueAt: '2030-06-02T06:00:00.000Z' });

    const cancelled = await call('POST', `/scheduled-actions/${id}/cancel`);
    expect(cancelled.json()).toMatchObject({ id, status: 'cancelled' });
    const again = await call('POST', `/scheduled-actions/${id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ACTION_NOT_SCHEDULED');
    expect((await call('PUT', `/scheduled-actions/${id}`, { dueAt: inMinutes(5) })).statusCode).toBe(409);
  });

  it('refuses due times in the past or beyond five years, unknown articles and bad input with a 4xx', async () => {
    const articleId = await draft('Bad times');
    const past = await call('POST', '/scheduled-actions', {
      articleId,
      kind: 'publish',
      dueAt: inMinutes(-10),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().code).toBe('INVALID_DUE_AT');
    const far = await call('POST', '/scheduled-actions', {
      articleId,
      kind: 'publish',
      dueAt: '2099-01-01T00:00:00Z',
    });
    expect(far.json().code).toBe('INVALID_DUE_AT');
    const unknown = await call('POST', '/scheduled-actions', {
      articleId: '00000000-0000-4000-8000-000000000000',
      kind: 'publish',
      dueAt: inMinutes(5),
    });
    expect(unknown.statusCode).toBe(404);
    const junk = await call('POST', '/scheduled-actions', { articleId, kind: 'explode', dueAt: 'tomorrow' });
    expect(junk.statusCode).toBe(400);
    expect(junk.json()).toHaveProperty('code');
    expect((await call('GET', '/scheduled-actions?status=nope')).statusCode).toBe(400);
  });

  it('is for administrators only', async () => {
    expect((await call('GET', '/scheduled-actions', undefined, publisherToken)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/v1/releases' })).statusCode).toBe(401);
  });
});

describe('embargo over HTTP', () => {
  it('shows the embargo, refuses to publish before it, and accepts a publish scheduled at it', async () => {
    const articleId = await draft('Agency report');
    const until = inMinutes(120);
    const set = await call('PUT', `/article/${articleId}/embargo`, { embargoUntil: until });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ status: 'draft', embargoUntil: until });
    expect((await call('GET', `/article?q=Agency`)).json().data[0].embargoUntil).toBe(until);

    const publish = await call('PUT', `/article/publish/${articleId}`);
    expect(publish.statusCode).toBe(409);
    expect(publish.json()).toMatchObject({ code: 'ARTICLE_EMBARGOED' });
    expect(publish.json().message).toContain(until);

    const early = await call('POST', '/scheduled-actions', {
      articleId,
      kind: 'publish',
      dueAt: inMinutes(60),
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('ARTICLE_EMBARGOED');
    expect(
      (await call('POST', '/scheduled-actions', { articleId, kind: 'publish', dueAt: until })).statusCode,
    ).toBe(201);

    const lifted = await call('PUT', `/article/${articleId}/embargo`, { embargoUntil: null });
    expect(lifted.json().embargoUntil).toBeNull();
    expect((await call('PUT', `/article/publish/${articleId}`)).statusCode).toBe(200);
  });

  it('takes a published article off the sites now and schedules its return at the embargo', async () => {
    const articleId = await draft('Pulled for embargo');
    await call('PUT', `/article/publish/${articleId}`);
    const until = inMinutes(30);
    const set = await call('PUT', `/article/${articleId}/embargo`, { embargoUntil: until });
    expect(set.json()).toMatchObject({ status: 'draft', embargoUntil: until });
    const pending = (await call('GET', `/scheduled-actions?articleId=${articleId}&status=scheduled`)).json()
      .data;
    expect(pending).toMatchObject([{ kind: 'publish', dueAt: until }]);
  });

  it('refuses an embargo in the past', async () => {
    const articleId = await draft('Old news');
    const response = await call('PUT', `/article/${articleId}/embargo`, { embargoUntil: inMinutes(-1) });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('INVALID_EMBARGO');
  });
});

describe('releases over HTTP', () => {
  it('creates a release of several articles, reschedules it with its actions, and cancels it', async () => {
    const ids = [await draft('Package A'), await draft('Package B')];
    const created = await call('POST', '/releases', {
      name: 'Budget package',
      dueAt: inMinutes(60),
      actions: ids.map((articleId) => ({ articleId, kind: 'publish' })),
    });
    expect(created.statusCode).toBe(201);
    const release = created.json();
    expect(release.actions).toHaveLength(2);
    expect(release.actions[0]).toMatchObject({ releaseId: release.id, releaseName: 'Budget package' });

    const due = inMinutes(90);
    const moved = (await call('PUT', `/releases/${release.id}`, { dueAt: due })).json();
    expect(moved.dueAt).toBe(due);
    expect(moved.actions.every((a: { dueAt: string }) => a.dueAt === due)).toBe(true);
    // An action of a release moves with its release only.
    const single = await call('PUT', `/scheduled-actions/${release.actions[0].id}`, { dueAt: inMinutes(10) });
    expect(single.json().code).toBe('ACTION_IN_RELEASE');

    const cancelled = (await call('POST', `/releases/${release.id}/cancel`)).json();
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.actions.every((a: { status: string }) => a.status === 'cancelled')).toBe(true);
    expect((await call('GET', '/releases?status=scheduled')).json().data).toEqual([]);
  });

  it('refuses an empty release and unknown articles', async () => {
    expect(
      (await call('POST', '/releases', { name: 'Empty', dueAt: inMinutes(5), actions: [] })).statusCode,
    ).toBe(400);
    const unknown = await call('POST', '/releases', {
      name: 'Ghost',
      dueAt: inMinutes(5),
      actions: [{ articleId: '00000000-0000-4000-8000-000000000000', kind: 'publish' }],
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('scheduling by an editor (the named-articles scope)', () => {
  it('schedules and lists on its site, and is refused (403) on another and without an article', async () => {
    const siteA = await insertSite(testApp.db, 'schedule-scope-a');
    const siteB = await insertSite(testApp.db, 'schedule-scope-b');
    const editor = await insertStaff(app, testApp.db, 'editor');
    await grant(testApp.db, editor.id, siteA, 'editor');
    const onA = await insertArticle(testApp.db, { status: 'draft', siteIds: [siteA] });
    const onB = await insertArticle(testApp.db, { status: 'draft', siteIds: [siteB] });
    const schedule = (articleId: string) =>
      call('POST', '/scheduled-actions', { articleId, kind: 'publish', dueAt: inMinutes(30) }, editor.token);

    expect((await schedule(onA.id)).statusCode).toBe(201);
    expect(
      (await call('GET', `/scheduled-actions?articleId=${onA.id}`, undefined, editor.token)).statusCode,
    ).toBe(200);
    const refused = await schedule(onB.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('FORBIDDEN');
    expect(
      (await call('GET', `/scheduled-actions?articleId=${onB.id}`, undefined, editor.token)).statusCode,
    ).toBe(403);
    // Every schedule of the site: not an editor's (it names no article).
    expect((await call('GET', '/scheduled-actions', undefined, editor.token)).statusCode).toBe(403);

    const release = (actions: { articleId: string; kind: 'publish' }[]) =>
      call('POST', '/releases', { name: 'Evening', dueAt: inMinutes(60), actions }, editor.token);
    expect((await release([{ articleId: onA.id, kind: 'publish' }])).statusCode).toBe(201);
    // One article out of scope refuses the whole release.
    const mixed = await release([
      { articleId: onA.id, kind: 'publish' },
      { articleId: onB.id, kind: 'publish' },
    ]);
    expect(mixed.statusCode).toBe(403);
  });

  it("moves and cancels its site's actions and releases (the action's or release's articles), not another's", async () => {
    const siteA = await insertSite(testApp.db, 'schedule-move-a');
    const siteB = await insertSite(testApp.db, 'schedule-move-b');
    const editor = await insertStaff(app, testApp.db, 'editor');
    await grant(testApp.db, editor.id, siteA, 'editor');
    const onA = await insertArticle(testApp.db, { status: 'draft', siteIds: [siteA] });
    const onB = await insertArticle(testApp.db, { status: 'draft', siteIds: [siteB] });
    // Scheduled by an administrator: the editor acts on them through their articles' sites.
    const action = async (articleId: string) =>
      (await call('POST', '/scheduled-actions', { articleId, kind: 'publish', dueAt: inMinutes(30) })).json()
        .id as string;
    const release = async (articleId: string) =>
      (
        await call('POST', '/releases', {
          name: 'Night',
          dueAt: inMinutes(90),
          actions: [{ articleId, kind: 'publish' }],
        })
      ).json().id as string;
    const [actionA, actionB, releaseA, releaseB] = [
      await action(onA.id),
      await action(onB.id),
      await release(onA.id),
      await release(onB.id),
    ];
    const as = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      call(method, url, payload, editor.token).then((response) => response.statusCode);

    expect(await as('PUT', `/scheduled-actions/${actionA}`, { dueAt: inMinutes(45) })).toBe(200);
    expect(await as('POST', `/scheduled-actions/${actionA}/cancel`)).toBe(200);
    expect(await as('PUT', `/scheduled-actions/${actionB}`, { dueAt: inMinutes(45) })).toBe(403);
    expect(await as('POST', `/scheduled-actions/${actionB}/cancel`)).toBe(403);
    expect(await as('GET', `/releases/${releaseA}`)).toBe(200);
    expect(await as('PUT', `/releases/${releaseA}`, { dueAt: inMinutes(120) })).toBe(200);
    expect(await as('POST', `/releases/${releaseA}/cancel`)).toBe(200);
    expect(await as('GET', `/releases/${releaseB}`)).toBe(403);
    expect(await as('POST', `/releases/${releaseB}/cancel`)).toBe(403);
    // One that does not exist: the handler's 404, not a 403.
    expect(await as('POST', '/scheduled-actions/00000000-0000-4000-8000-000000000000/cancel')).toBe(404);
    // Every release: still the administrators' list.
    expect(await as('GET', '/releases')).toBe(403);
  });
});
