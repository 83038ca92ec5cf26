import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle } from './support/content-fixtures';
import { createDashboardUsers } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken } = await createDashboardUsers(testApp);
const headers = { authorization: `Bearer ${adminToken}` };
const unknownId = '00000000-0000-4000-8000-000000000000';

const bulk = (payload: object) =>
  app.inject({ method: 'POST', url: '/api/v1/article/bulk', headers, payload });
const statusOf = async (id: string) =>
  (await db.selectFrom('articles').select('status').where('id', '=', id).executeTakeFirst())?.status;
const draft = async () => (await insertArticle(db, { status: 'draft' })).id;

describe('POST /api/v1/article/bulk', () => {
  it('applies the action to each id in order, reporting each refusal without stopping the others', async () => {
    const [a, b] = [await draft(), await draft()];
    const published = (await insertArticle(db, { status: 'published' })).id;
    const response = await bulk({ action: 'publish', ids: [a, published, unknownId, b] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      results: [
        { id: a, ok: true, status: 'published' },
        {
          id: published,
          ok: false,
          error: { code: 'INVALID_TRANSITION', message: 'Cannot publish an article that is published' },
        },
        { id: unknownId, ok: false, error: { code: 'ARTICLE_NOT_FOUND', message: expect.any(String) } },
        { id: b, ok: true, status: 'published' },
      ],
    });
    expect([await statusOf(a), await statusOf(b)]).toEqual(['published', 'published']);
  });

  it('approves and rejects pending items, unpublishes, and deletes', async () => {
    const pending = await Promise.all(
      [1, 2, 3].map(() => insertArticle(db, { status: 'pending', aggregated: true })),
    );
    const [p1, p2, p3] = pending.map((article) => article.id) as [string, string, string];
    expect(
      (await bulk({ action: 'approve', ids: [p1, p2] })).json().results.map((r: { ok: boolean }) => r.ok),
    ).toEqual([true, true]);
    expect((await bulk({ action: 'reject', ids: [p3] })).json().results).toEqual([
      { id: p3, ok: true, status: 'rejected' },
    ]);
    expect((await bulk({ action: 'unpublish', ids: [p1] })).json().results).toEqual([
      { id: p1, ok: true, status: 'draft' },
    ]);
    const deleted = await bulk({ action: 'delete', ids: [p1, p2, unknownId] });
    expect(deleted.json().results).toEqual([
      { id: p1, ok: true },
      { id: p2, ok: true },
      { id: unknownId, ok: false, error: { code: 'ARTICLE_NOT_FOUND', message: expect.any(String) } },
    ]);
    expect([await statusOf(p1), await statusOf(p2), await statusOf(p3)]).toEqual([
      undefined,
      undefined,
      'rejected',
    ]);
  });

  it('of two concurrent bulk publishes of the same drafts, each draft is published exactly once', async () => {
    const ids = [await draft(), await draft(), await draft()];
    const [first, second] = await Promise.all([
      bulk({ action: 'publish', ids }),
      bulk({ action: 'publish', ids }),
    ]);
    for (let i = 0; i < ids.length; i++) {
      const oks = [first.json().results[i].ok, second.json().results[i].ok];
      expect(oks.filter(Boolean)).toHaveLength(1);
    }
  });

  it.each([
    ['no ids', { action: 'publish', ids: [] }],
    [
      'over 100 ids',
      {
        action: 'publish',
        ids: Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`),
      },
    ],
    ['a repeated id', { action: 'publish', ids: [unknownId, unknownId] }],
    ['a malformed id', { action: 'publish', ids: ['nope'] }],
    ['an unknown action', { action: 'archive', ids: [unknownId] }],
    ['an extra property', { action: 'publish', ids: [unknownId], force: true }],
  ])('refuses %s with 400 VALIDATION_ERROR', async (_name, payload) => {
    const response = await bulk(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });
});

describe('GET /api/v1/article/slug-available', () => {
  const check = (query: string) =>
    app.inject({ method: 'GET', url: `/api/v1/article/slug-available?${query}`, headers });

  it('says whether a slug is valid and free, counting the edited article own slug as free', async () => {
    const { id, slug } = await insertArticle(db, { slug: 'taken-slug', status: 'draft' });
    expect((await check('slug=fresh-slug')).json()).toEqual({
      slug: 'fresh-slug',
      valid: true,
      available: true,
    });
    expect((await check(`slug=${slug}`)).json()).toEqual({ slug, valid: true, available: false });
    expect((await check(`slug=${slug}&exceptId=${id}`)).json()).toEqual({
      slug,
      valid: true,
      available: true,
    });
    expect((await check(`slug=${slug}&exceptId=${unknownId}`)).json().available).toBe(false);
    expect((await check('slug=Not%20A%20Slug')).json()).toEqual({
      slug: 'Not A Slug',
      valid: false,
      available: false,
    });
    expect((await check(`slug=${'a'.repeat(121)}`)).json()).toMatchObject({ valid: false, available: false });
  });

  it('refuses a missing or empty slug and a malformed exceptId with 400', async () => {
    for (const query of ['', 'slug=', 'slug=ok&exceptId=nope']) {
      expect((await check(query)).statusCode, query).toBe(400);
    }
  });
});
