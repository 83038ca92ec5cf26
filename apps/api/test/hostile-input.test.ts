import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer } from './support/dashboard-accounts';
import { createDashboardUsers } from './support/dashboard-users';
import { createTestApp, testApiKey } from './support/test-app';

const testApp = await createTestApp();
const { app } = testApp;
afterAll(testApp.close);

const { adminToken, publisherToken, publisherId } = await createDashboardUsers(testApp);
const asAdmin = bearer(adminToken);
const asPublisher = bearer(publisherToken);
const asClient = { 'x-api-key': testApiKey };
const unknownId = '00000000-0000-4000-8000-000000000000';

async function createDraft(title = 'A draft') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/article',
    headers: asAdmin,
    payload: { title },
  });
  expect(response.statusCode).toBe(201);
  return response.json().id as string;
}

function expectValidationError(
  response: { statusCode: number; json(): unknown },
  path: string,
  message: RegExp,
) {
  expect(response.statusCode).toBe(400);
  const body = response.json() as { code: string; details: unknown[] };
  expect(body.code).toBe('VALIDATION_ERROR');
  expect(body.details).toContainEqual({ path, message: expect.stringMatching(message) });
}

describe('a NUL character in any string', () => {
  const nul = /NUL character/;

  it.each([
    [
      'the login e-mail (unauthenticated)',
      'POST',
      '/api/v1/auth/login',
      {},
      { email: 'a\u0000b@example.com', password: 'x'.repeat(12) },
      'body/email',
    ],
    ['an article title', 'POST', '/api/v1/article', asAdmin, { title: 'Breaking\u0000news' }, 'body/title'],
    [
      'an article tag',
      'POST',
      '/api/v1/article',
      asAdmin,
      { title: 'Tagged', tags: ['ok', 'b\u0000d'] },
      'body/tags/1',
    ],
    [
      'a publisher name',
      'POST',
      '/api/v1/publisher',
      asAdmin,
      { name: 'Pub\u0000', email: 'p@example.com', password: 'x'.repeat(12) },
      'body/name',
    ],
    ['a site name', 'POST', '/api/v1/site', asAdmin, { slug: 'metro', name: 'Metro\u0000' }, 'body/name'],
    [
      'a feed URL',
      'PUT',
      '/api/v1/publisher/me/feed',
      asPublisher,
      { feedUrl: 'https://feeds.example/\u0000', defaultTags: [] },
      'body/feedUrl',
    ],
  ])('in %s answers 400 naming the field', async (_name, method, url, headers, payload, path) => {
    const response = await app.inject({ method: method as 'POST', url, headers, payload });
    expectValidationError(response, path, nul);
  });

  it('in a property name answers 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/article',
      headers: asAdmin,
      payload: { title: 'x', 'a\u0000': 1 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });

  it.each([
    ['a client listing filter', '/api/v1/client/posts?tag=%00', asClient, 'querystring/tag'],
    [
      'a client site filter',
      '/api/v1/client/partner-articles?category=a%00b',
      asClient,
      'querystring/category',
    ],
    ['a client slug', '/api/v1/client/article/%00', asClient, 'params/slug'],
    ['an admin search', '/api/v1/article?q=%00', asAdmin, 'querystring/q'],
    ['a path slug', '/api/v1/client/article/ok%00', asClient, 'params/slug'],
  ])('in %s answers 400 naming the field', async (_name, url, headers, path) => {
    const response = await app.inject({ method: 'GET', url, headers });
    expectValidationError(response, path, nul);
  });
});

describe('a lone UTF-16 surrogate in any string', () => {
  // JSON may escape one ("\ud800"), JavaScript strings may hold one, but it is no Unicode text: Postgres
  // refuses it in jsonb (import rules) and UTF-8 cannot carry it into text columns.
  const surrogate = /lone UTF-16 surrogate/;

  it.each([
    [
      'an import rule keyword',
      { importRules: { includeKeywords: ['ok', 'a\ud800'] } },
      'body/importRules/includeKeywords/1',
    ],
    [
      'an import rule category',
      { importRules: { defaultCategory: '\udc00News' } },
      'body/importRules/defaultCategory',
    ],
    [
      'a tag mapping',
      { importRules: { tagMappings: [{ from: 'Politics', to: 'x\udfff' }] } },
      'body/importRules/tagMappings/0/to',
    ],
  ])('in %s answers 400 naming the field, known publisher or not', async (_name, payload, path) => {
    for (const id of [publisherId, unknownId]) {
      const response = await app.inject({
        method: 'PUT',
        url: `/api/v1/publisher/${id}`,
        headers: asAdmin,
        payload,
      });
      expectValidationError(response, path, surrogate);
    }
  });

  it('in an article title and a property name answers 400', async () => {
    const title = await app.inject({
      method: 'POST',
      url: '/api/v1/article',
      headers: asAdmin,
      payload: { title: 'Breaking \ud83d news' },
    });
    expectValidationError(title, 'body/title', surrogate);
    const name = await app.inject({
      method: 'POST',
      url: '/api/v1/article',
      headers: asAdmin,
      payload: { title: 'x', 'a\ud800': 1 },
    });
    expect(name.statusCode).toBe(400);
    expect(name.json().code).toBe('VALIDATION_ERROR');
  });

  it('accepts a surrogate pair (an emoji)', async () => {
    const response = await app.inject({
      method: 'PUT',
      url: `/api/v1/publisher/${publisherId}`,
      headers: asAdmin,
      payload: { importRules: { includeKeywords: ['\ud83d\udcf0 news'] } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().importRules.includeKeywords).toEqual(['\u{1f4f0} news']);
  });
});

describe('page and limit', () => {
  const paginated: [string, Record<string, string>][] = [
    ['/api/v1/client/posts', asClient],
    ['/api/v1/client/partner-articles', asClient],
    ['/api/v1/article', asAdmin],
    ['/api/v1/article/pending', asAdmin],
    ['/api/v1/publisher', asAdmin],
    ['/api/v1/publisher/me/articles', asPublisher],
  ];
  const cases = paginated.flatMap(([url, headers]) =>
    ['page', 'limit'].flatMap((field) =>
      ['Infinity', '-Infinity', '1e309', '-1e309', 'NaN'].map((value) => ({ url, headers, field, value })),
    ),
  );

  it.each(cases)('$url?$field=$value answers 400', async ({ url, headers, field, value }) => {
    const response = await app.inject({ method: 'GET', url: `${url}?${field}=${value}`, headers });
    expectValidationError(response, `querystring/${field}`, /finite|integer/);
  });

  it('still accepts finite integers written as text', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/client/posts?page=1&limit=1e1',
      headers: asClient,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().meta.pagination).toMatchObject({ page: 1, limit: 10 });
  });
});

describe('state changes without a body', () => {
  const json = { 'content-type': 'application/json' };

  it('publish accepts an empty JSON body', async () => {
    const id = await createDraft();
    const response = await app.inject({
      method: 'PUT',
      url: `/api/v1/article/publish/${id}`,
      headers: { ...asAdmin, ...json },
      payload: '',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('published');
  });

  it.each([
    ['PUT', `/api/v1/article/approve/${unknownId}`, 404],
    ['PUT', `/api/v1/article/reject/${unknownId}`, 404],
    ['PUT', `/api/v1/publisher/${publisherId}/disable`, 200],
    ['PUT', `/api/v1/publisher/${publisherId}/enable`, 200],
    ['DELETE', `/api/v1/site/${unknownId}`, 404],
  ])('%s %s accepts an empty JSON body', async (method, url, status) => {
    for (const payload of ['', ' \n']) {
      const response = await app.inject({
        method: method as 'PUT',
        url,
        headers: { ...asAdmin, ...json },
        payload,
      });
      expect(response.statusCode).toBe(status);
    }
  });

  it('a route with a body still refuses an empty one', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/article',
      headers: { ...asAdmin, ...json },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('INVALID_JSON');
  });
});

describe('poisoned bodies', () => {
  it.each([
    '{"title":"x","__proto__":{"admin":true}}',
    '{"title":"x","constructor":{"prototype":{"admin":true}}}',
  ])('%s answers 400 INVALID_JSON', async (payload) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/article',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('INVALID_JSON');
  });
});

describe('unknown parameters', () => {
  it('an unknown query parameter is named', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/client/posts?foo=1',
      headers: asClient,
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.message).toBe('Invalid querystring: unknown query parameter "foo"');
    expect(body.details).toEqual([{ path: 'querystring/foo', message: 'unknown query parameter "foo"' }]);
  });

  it('an unknown body property is named', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/article',
      headers: asAdmin,
      payload: { title: 'x', admin: true },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: 'body/admin', message: 'unknown property "admin"' }]);
  });
});

describe('paths Fastify refuses before routing', () => {
  it.each([
    ['malformed percent-encoding', '/api/v1/article/%zz', 400, 'MALFORMED_URL'],
    [
      'a parameter over 100 characters',
      `/api/v1/client/article/${'x'.repeat(101)}`,
      414,
      'PATH_PARAMETER_TOO_LONG',
    ],
  ])('%s answers in the one error shape', async (_name, url, status, code) => {
    const response = await app.inject({ method: 'GET', url, headers: { ...asAdmin, ...asClient } });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({
      statusCode: status,
      code,
      error: expect.any(String),
      message: expect.not.stringContaining(url),
    });
  });
});

/** Writes raw bytes to the listening app and reads everything it answers until it closes (bounded). */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.end(request);
  });
}

describe('requests the HTTP parser refuses', () => {
  it.each([
    [
      'a NUL character in a header',
      'GET /health HTTP/1.1\r\nHost: x\r\nX-Api-Key: a\u0000b\r\n\r\n',
      400,
      'MALFORMED_REQUEST',
    ],
    ['a broken request line', 'GET /health HTTP/9\r\n\r\n', 400, 'MALFORMED_REQUEST'],
    [
      'headers over the size limit',
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
  ])('%s is answered in the one error shape', async (_name, request, status, code) => {
    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const answer = await rawExchange(port, request);
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(body)).toEqual({
      statusCode: status,
      code,
      error: expect.any(String),
      message: expect.any(String),
    });
  });
});
