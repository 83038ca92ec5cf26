import { executableParts, HOSTILE_HTML } from '@newsroom/test-support/hostile-html';
import { afterAll, describe, expect, it } from 'vitest';
import { createDashboardUsers } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

const testApp = await createTestApp();
const { app, db, close } = testApp;
afterAll(close);
const { adminToken } = await createDashboardUsers(testApp);
const headers = { authorization: `Bearer ${adminToken}` };

// What an attacker holding an administrator's token (or forging a request) would try to store for child sites:
// the whole hostile corpus, checked as a browser would parse what is stored.
// A NUL character is refused before sanitising (Postgres text cannot hold it): see the last test.
const hostileBodies = HOSTILE_HTML.filter((body) => !body.includes('\u0000'));

const create = (body: string) =>
  app.inject({ method: 'POST', url: '/api/v1/article', headers, payload: { title: 'Hostile', body } });

async function storedBody(id: string): Promise<string> {
  const row = await db.selectFrom('articles').select('body').where('id', '=', id).executeTakeFirstOrThrow();
  return row.body;
}

describe('article bodies written through the API are sanitised on write', () => {
  it.each(hostileBodies.map((body) => [body]))(
    'stores %s without anything executable (create)',
    async (body) => {
      const response = await create(body);
      expect(response.statusCode).toBe(201);
      const stored = await storedBody(response.json().id);
      expect(executableParts(stored)).toEqual([]);
      expect(response.json().body).toBe(stored);
    },
  );

  it('cleans the whole corpus in one body on edit, and keeps ordinary markup', async () => {
    const { id } = (await create('<p>draft</p>')).json();
    const body = `<p><strong>Bold</strong> and <a href="https://example.com/x">a link</a></p>${hostileBodies.join('')}`;
    const response = await app.inject({
      method: 'PUT',
      url: `/api/v1/article/${id}`,
      headers,
      payload: { body },
    });
    expect(response.statusCode).toBe(200);
    const stored = await storedBody(id);
    expect(executableParts(stored)).toEqual([]);
    expect(stored).toContain(
      '<p><strong>Bold</strong> and <a href="https://example.com/x" rel="noopener noreferrer">a link</a></p>',
    );
    expect(stored).toContain('<a href="https://news.example.com/ok" rel="noopener noreferrer">fine link</a>');
  });

  it('leaves an edit without a body alone, and drops relative URLs (nothing to resolve them against)', async () => {
    const { id } = (await create('<p>Kept <a href="/relative">here</a></p>')).json();
    expect(await storedBody(id)).toBe('<p>Kept <a rel="noopener noreferrer">here</a></p>');
    const edited = await app.inject({
      method: 'PUT',
      url: `/api/v1/article/${id}`,
      headers,
      payload: { title: 'Renamed' },
    });
    expect(edited.json().body).toBe('<p>Kept <a rel="noopener noreferrer">here</a></p>');
  });

  it('refuses a body holding a NUL character with a 400 naming the problem', async () => {
    const body = HOSTILE_HTML.find((vector) => vector.includes('\u0000')) ?? '';
    const response = await create(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body/body', message: 'must not contain a NUL character' }],
    });
  });
});
