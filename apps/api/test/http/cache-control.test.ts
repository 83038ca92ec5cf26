import { afterAll, describe, expect, it } from 'vitest';
import { insertSite } from '../support/content-fixtures';
import { bearer } from '../support/dashboard-accounts';
import { createDashboardUsers } from '../support/dashboard-users';
import { createTestApp, testApiKey } from '../support/test-app';

// Dashboard answers carry tokens, CSRF tokens and unpublished content: no browser or proxy may keep them.

const testApp = await createTestApp();
const { app, db } = testApp;
afterAll(testApp.close);
const { adminToken, publisherToken, publisherId } = await createDashboardUsers(testApp);
const siteId = await insertSite(db, 'metro');

describe('Cache-Control on dashboard API answers', () => {
  it.each([
    ['GET', '/api/v1/auth/session', {}],
    ['GET', '/api/v1/auth/me', bearer(adminToken)],
    ['GET', '/api/v1/article', bearer(adminToken)],
    ['GET', '/api/v1/publisher', bearer(adminToken)],
    ['GET', `/api/v1/publisher/${publisherId}`, bearer(adminToken)],
    ['GET', '/api/v1/publisher/me', bearer(publisherToken)],
    ['GET', '/api/v1/webhooks', bearer(adminToken)],
    ['GET', '/api/v1/site', bearer(adminToken)],
    ['GET', `/api/v1/site/${siteId}/keys`, bearer(adminToken)],
    ['GET', '/api/v1/article', {}], // 401
    ['GET', '/api/v1/article', bearer(publisherToken)], // 403
    ['GET', '/api/v1/article/00000000-0000-4000-8000-000000000000', bearer(adminToken)], // 404
  ] as const)('%s %s is no-store', async (method, url, headers) => {
    const response = await app.inject({ method, url, headers });
    expect(response.statusCode).toBeLessThan(500);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('holds for the queue dashboard (signed out: the redirect to sign-in)', async () => {
    const response = await app.inject({ method: 'GET', url: '/admin/queues/api/queues' });
    expect(response.statusCode).toBeLessThan(500);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('holds for a login answer', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'nobody@example.com', password: 'a wrong password' },
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('leaves the client routes their own caching', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/client/posts',
      headers: { 'x-api-key': testApiKey },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toMatch(/^private, max-age=\d+/);
  });
});
