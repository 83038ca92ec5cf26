import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDashboardUsers, insertImportedArticle } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken, publisherId } = await createDashboardUsers(testApp);

const get = (url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${adminToken}` } });
const titlesOf = (response: Awaited<ReturnType<typeof get>>) =>
  response.json().data.map((article: { title: string }) => article.title);

/** created_at is written by Postgres only, so the tests set it with plain SQL. */
const setCreatedAt = (id: string, at: Date) =>
  sql`update articles set created_at = ${at} where id = ${id}`.execute(db);

// Created in this order, one second apart in created_at, so "newest first" is well defined.
const titles = [
  'Budget passes',
  'Budget 100% approved',
  'Snake_case in headlines',
  'Back\\slash story',
  'Weather: sunny',
  'BUDGET reactions',
];
for (const [index, title] of titles.entries()) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/article',
    headers: { authorization: `Bearer ${adminToken}` },
    payload: { title, body: 'x'.repeat(1000) },
  });
  await setCreatedAt(response.json().id, new Date(Date.UTC(2026, 0, 1, 0, 0, index)));
}
const imported = await insertImportedArticle(testApp, publisherId, 'Imported budget news');
await setCreatedAt(imported.id, new Date(Date.UTC(2025, 0, 1)));

describe('GET /api/v1/article', () => {
  it('lists every article newest first, without bodies, with pagination meta', async () => {
    const response = await get('/api/v1/article');
    expect(response.statusCode).toBe(200);
    expect(titlesOf(response)).toEqual([...titles].reverse().concat('Imported budget news'));
    expect(response.json().data[0]).not.toHaveProperty('body');
    expect(response.json().data[0]).toHaveProperty('hostSites', []);
    expect(response.json().meta.pagination).toEqual({
      page: 1,
      limit: 20,
      pages: 1,
      total: 7,
      next: null,
      prev: null,
    });
  });

  it('pages through the list', async () => {
    const page2 = await get('/api/v1/article?limit=3&page=2');
    expect(titlesOf(page2)).toEqual(['Snake_case in headlines', 'Budget 100% approved', 'Budget passes']);
    expect(page2.json().meta.pagination).toEqual({ page: 2, limit: 3, pages: 3, total: 7, next: 3, prev: 1 });
    const beyond = await get('/api/v1/article?limit=3&page=9');
    expect(beyond.json()).toMatchObject({ data: [], meta: { pagination: { total: 7, next: null } } });
  });

  it('breaks ties on created_at by id, so pages never overlap', async () => {
    await sql`update articles set created_at = ${new Date(Date.UTC(2026, 5, 1))}`.execute(db);
    const seen = [];
    for (let page = 1; page <= 4; page++) {
      seen.push(
        ...(await get(`/api/v1/article?limit=2&page=${page}`)).json().data.map((a: { id: string }) => a.id),
      );
    }
    expect(new Set(seen).size).toBe(7);
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it('filters by status', async () => {
    expect(titlesOf(await get('/api/v1/article?status=pending'))).toEqual(['Imported budget news']);
    expect((await get('/api/v1/article?status=published')).json().data).toEqual([]);
  });

  it('searches titles case-insensitively, combined with the status filter', async () => {
    const all = titlesOf(await get('/api/v1/article?q=budget'));
    expect(all.sort()).toEqual([
      'BUDGET reactions',
      'Budget 100% approved',
      'Budget passes',
      'Imported budget news',
    ]);
    expect(titlesOf(await get('/api/v1/article?q=BuDgEt&status=draft')).sort()).toEqual([
      'BUDGET reactions',
      'Budget 100% approved',
      'Budget passes',
    ]);
  });

  it('treats LIKE wildcards in the search as plain characters', async () => {
    expect(titlesOf(await get('/api/v1/article?q=%25'))).toEqual(['Budget 100% approved']);
    expect(titlesOf(await get('/api/v1/article?q=_'))).toEqual(['Snake_case in headlines']);
    expect(titlesOf(await get('/api/v1/article?q=%5C'))).toEqual(['Back\\slash story']);
    expect(titlesOf(await get('/api/v1/article?q=nothing-like-this'))).toEqual([]);
  });

  it.each([
    ['an unknown status', '?status=archived'],
    ['page 0', '?page=0'],
    ['a limit over 100', '?limit=101'],
    ['a non-numeric page', '?page=two'],
    ['an empty search', '?q='],
    ['a search over 200 characters', `?q=${'x'.repeat(201)}`],
    ['an unknown parameter', '?sort=title'],
  ])('refuses %s with 400', async (_name, query) => {
    const response = await get(`/api/v1/article${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });
});
