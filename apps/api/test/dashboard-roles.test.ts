import { afterAll, describe, expect, it } from 'vitest';
import { bearer, insertAdmin, insertPublisher } from './support/dashboard-accounts';
import { createTestApp } from './support/test-app';

// The role matrix of every auth and publisher route: anonymous, publisher, administrator.

const { app, db, close } = await createTestApp();
afterAll(close);

const admin = await insertAdmin(app, db);
const publisher = await insertPublisher(app, db);
const target = await insertPublisher(app, db);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Who = 'anonymous' | 'publisher' | 'admin';

interface RouteCase {
  method: Method;
  url: string;
  payload?: object;
  /** Expected status for each caller. */
  expect: Record<Who, number>;
}

const adminOnly = (status: number) => ({ anonymous: 401, publisher: 403, admin: status });
const publisherOnly = (status: number) => ({ anonymous: 401, publisher: status, admin: 403 });
let n = 0;

const routes: (() => RouteCase)[] = [
  () => ({ method: 'GET', url: '/api/v1/auth/me', expect: { anonymous: 401, publisher: 200, admin: 200 } }),
  () => ({
    method: 'POST',
    url: '/api/v1/publisher',
    payload: { name: 'Matrix', email: `matrix-${++n}@example.com`, password: 'a long enough password' },
    expect: adminOnly(201),
  }),
  () => ({ method: 'GET', url: '/api/v1/publisher', expect: adminOnly(200) }),
  () => ({ method: 'GET', url: '/api/v1/publisher/reports?from=2026-01&to=2026-02', expect: adminOnly(200) }),
  () => ({ method: 'GET', url: `/api/v1/publisher/${target.publisherId}`, expect: adminOnly(200) }),
  () => ({
    method: 'PUT',
    url: `/api/v1/publisher/${target.publisherId}`,
    payload: { autoApprove: true },
    expect: adminOnly(200),
  }),
  () => ({ method: 'PUT', url: `/api/v1/publisher/${target.publisherId}/approve`, expect: adminOnly(200) }),
  () => ({ method: 'PUT', url: `/api/v1/publisher/${target.publisherId}/disable`, expect: adminOnly(200) }),
  () => ({ method: 'PUT', url: `/api/v1/publisher/${target.publisherId}/enable`, expect: adminOnly(200) }),
  () => ({ method: 'GET', url: '/api/v1/publisher/me', expect: publisherOnly(200) }),
  () => ({
    method: 'PUT',
    url: '/api/v1/publisher/me/feed',
    payload: { feedUrl: 'https://feed.example/rss' },
    expect: publisherOnly(200),
  }),
  () => ({ method: 'GET', url: '/api/v1/publisher/me/articles', expect: publisherOnly(200) }),
];

const tokens: Record<Who, Record<string, string>> = {
  anonymous: {},
  publisher: bearer(publisher.token),
  admin: bearer(admin.token),
};

describe.each(['anonymous', 'publisher', 'admin'] as const)('as %s', (who) => {
  it.each(routes.map((route) => [`${route().method} ${route().url.replace(/[0-9a-f-]{36}/, ':id')}`, route]))(
    '%s',
    async (_name, route) => {
      const { method, url, payload, expect: expected } = route();
      const response = await app.inject({ method, url, headers: tokens[who], ...(payload && { payload }) });
      expect(response.statusCode).toBe(expected[who]);
      if (response.statusCode >= 400) {
        expect(response.json().code).toBe(response.statusCode === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN');
      }
    },
  );

  it('DELETE /api/v1/publisher/:id', async () => {
    const doomed = await insertPublisher(app, db);
    const response = await app.inject({
      method: 'DELETE',
      url: `/api/v1/publisher/${doomed.publisherId}`,
      headers: tokens[who],
    });
    expect(response.statusCode).toBe(adminOnly(204)[who]);
  });
});

describe('a publisher never reaches another publisher through the administrator routes', () => {
  it.each([
    ['GET', ''],
    ['PUT', ''],
    ['PUT', '/approve'],
    ['PUT', '/disable'],
    ['DELETE', ''],
  ] as const)('%s /api/v1/publisher/:id%s -> 403 and nothing changes', async (method, suffix) => {
    const response = await app.inject({
      method,
      url: `/api/v1/publisher/${target.publisherId}${suffix}`,
      headers: tokens.publisher,
      ...(method === 'PUT' && suffix === '' && { payload: { name: 'Hijacked' } }),
    });
    expect(response.statusCode).toBe(403);
    const row = await db
      .selectFrom('publishers')
      .select(['name', 'disabled_at'])
      .where('id', '=', target.publisherId)
      .executeTakeFirst();
    expect(row?.name).not.toBe('Hijacked');
    expect(row?.disabled_at).toBeNull();
  });
});
