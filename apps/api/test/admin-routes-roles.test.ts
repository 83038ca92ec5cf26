import { afterAll, describe, expect, it } from 'vitest';
import { createUploadSigner } from '../src/storage/upload-signer';
import { createDashboardUsers, insertImportedArticle } from './support/dashboard-users';
import { createTestApp } from './support/test-app';

// Signing makes no request, so a signer for a store that is not running is enough here.
const storage = createUploadSigner({
  accessKeyId: 'key',
  secretAccessKey: 'secret',
  region: 'us-east-1',
  bucket: 'media',
  endpoint: 'http://127.0.0.1:9',
  publicUrl: undefined,
});
const testApp = await createTestApp({ storage });
const { app, close } = testApp;
afterAll(close);
const { adminToken, publisherToken, publisherId } = await createDashboardUsers(testApp);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const send = (method: Method, url: string, token?: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload ? { payload } : {}),
  });

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;
const newDraft = async () =>
  (await send('POST', '/api/v1/article', adminToken, { title: unique('Role draft') })).json().id as string;
const newPublished = async () => {
  const id = await newDraft();
  await send('PUT', `/api/v1/article/publish/${id}`, adminToken);
  return id;
};
const newPending = async () => (await insertImportedArticle(testApp, publisherId, unique('Role pending'))).id;
const newSite = async () =>
  (await send('POST', '/api/v1/site', adminToken, { slug: unique('site'), name: 'Site' })).json()
    .id as string;

interface RouteCase {
  route: string;
  method: Method;
  /** Creates what the route acts on and returns its URL. */
  url: () => Promise<string>;
  payload?: () => object;
  adminStatus: number;
}

// Every administrator route of this area. A refused call must leave the fixture as it was,
// which the administrator's call after it proves (e.g. publish still finds a draft, delete still finds the row).
const routes: RouteCase[] = [
  { route: 'GET /article', method: 'GET', url: async () => '/api/v1/article', adminStatus: 200 },
  {
    route: 'GET /article/pending',
    method: 'GET',
    url: async () => '/api/v1/article/pending',
    adminStatus: 200,
  },
  {
    route: 'GET /article/:id',
    method: 'GET',
    url: async () => `/api/v1/article/${await newDraft()}`,
    adminStatus: 200,
  },
  {
    route: 'POST /article',
    method: 'POST',
    url: async () => '/api/v1/article',
    payload: () => ({ title: 'Role matrix create' }),
    adminStatus: 201,
  },
  {
    route: 'PUT /article/:id',
    method: 'PUT',
    url: async () => `/api/v1/article/${await newDraft()}`,
    payload: () => ({ title: 'Edited' }),
    adminStatus: 200,
  },
  {
    route: 'POST /article/host-site/:id',
    method: 'POST',
    url: async () => `/api/v1/article/host-site/${await newDraft()}`,
    payload: () => ({ hostSites: [] }),
    adminStatus: 200,
  },
  {
    route: 'PUT /article/publish/:id',
    method: 'PUT',
    url: async () => `/api/v1/article/publish/${await newDraft()}`,
    adminStatus: 200,
  },
  {
    route: 'PUT /article/unpublish/:id',
    method: 'PUT',
    url: async () => `/api/v1/article/unpublish/${await newPublished()}`,
    adminStatus: 200,
  },
  {
    route: 'PUT /article/approve/:id',
    method: 'PUT',
    url: async () => `/api/v1/article/approve/${await newPending()}`,
    adminStatus: 200,
  },
  {
    route: 'PUT /article/reject/:id',
    method: 'PUT',
    url: async () => `/api/v1/article/reject/${await newPending()}`,
    adminStatus: 200,
  },
  {
    route: 'DELETE /article/:id',
    method: 'DELETE',
    url: async () => `/api/v1/article/${await newDraft()}`,
    adminStatus: 204,
  },
  { route: 'GET /site', method: 'GET', url: async () => '/api/v1/site', adminStatus: 200 },
  {
    route: 'POST /site',
    method: 'POST',
    url: async () => '/api/v1/site',
    payload: () => ({ slug: unique('created'), name: 'Created' }),
    adminStatus: 201,
  },
  {
    route: 'GET /site/:id',
    method: 'GET',
    url: async () => `/api/v1/site/${await newSite()}`,
    adminStatus: 200,
  },
  {
    route: 'PUT /site/:id',
    method: 'PUT',
    url: async () => `/api/v1/site/${await newSite()}`,
    payload: () => ({ name: 'Renamed' }),
    adminStatus: 200,
  },
  {
    route: 'DELETE /site/:id',
    method: 'DELETE',
    url: async () => `/api/v1/site/${await newSite()}`,
    adminStatus: 204,
  },
  {
    route: 'POST /sign-storage',
    method: 'POST',
    url: async () => '/api/v1/sign-storage',
    payload: () => ({ fileName: 'a.png', fileType: 'image/png' }),
    adminStatus: 200,
  },
];

describe('role matrix of the administrator routes', () => {
  it.each(routes)('$route: anonymous 401, publisher 403, administrator $adminStatus', async (route) => {
    const url = await route.url();
    const anonymous = await send(route.method, url, undefined, route.payload?.());
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHORIZED');

    const publisher = await send(route.method, url, publisherToken, route.payload?.());
    expect(publisher.statusCode).toBe(403);
    expect(publisher.json().code).toBe('FORBIDDEN');

    const admin = await send(route.method, url, adminToken, route.payload?.());
    expect(admin.statusCode).toBe(route.adminStatus);
  });

  it('checks the role before validating input: a publisher learns nothing from a malformed request', async () => {
    const response = await send('PUT', '/api/v1/article/not-a-uuid', publisherToken, { bogus: true });
    expect(response.statusCode).toBe(403);
  });
});

describe('OpenAPI document', () => {
  it('describes every administrator route of this area, with its error responses', async () => {
    const { paths } = (await app.inject('/docs/json')).json();
    for (const { route } of routes) {
      const [method = '', path = ''] = route.split(' ');
      const operation = paths[`/api/v1${path.replace(/:(\w+)/g, '{$1}')}`]?.[method.toLowerCase()];
      expect(operation, route).toBeDefined();
      expect(Object.keys(operation.responses), route).toEqual(expect.arrayContaining(['401', '403']));
    }
  });
});
