import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { bodyLimitBytes } from '../src/app';
import { errorResponses } from '../src/schemas/error.schema';
import { createTestApp } from './support/test-app';

const { app, close } = await createTestApp();
afterAll(close);

// A throwaway route to exercise the shared error handling.
app.post(
  '/echo',
  {
    schema: {
      body: Type.Object({ name: Type.String({ maxLength: 10 }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ name: Type.String() }), ...errorResponses(400, 413, 415) },
    },
  },
  async (request) => request.body,
);
app.post(
  '/typed',
  { schema: { body: Type.Object({ tags: Type.Array(Type.String()), count: Type.Integer() }) } },
  async () => ({}),
);
app.get(
  '/query',
  { schema: { querystring: Type.Object({ count: Type.Integer(), tags: Type.Array(Type.String()) }) } },
  async (request) => request.query,
);
app.get('/boom', async () => {
  throw new Error('relation "secret_table" does not exist');
});

describe('error shape', () => {
  it('answers an unknown route with a JSON 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/nope?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      statusCode: 404,
      code: 'ROUTE_NOT_FOUND',
      error: 'Not Found',
      message: 'Route GET /nope not found',
    });
  });

  it('answers a wrong method on an existing path with 405 and Allow', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/echo?x=1' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
    expect(response.json()).toEqual({
      statusCode: 405,
      code: 'METHOD_NOT_ALLOWED',
      error: 'Method Not Allowed',
      message: 'DELETE is not allowed on /echo: use POST',
    });
    const query = await app.inject({ method: 'PUT', url: '/query' });
    expect(query.statusCode).toBe(405);
    expect(query.headers.allow).toBe('GET, HEAD');
    const posts = await app.inject({ method: 'POST', url: '/api/v1/client/posts', payload: {} });
    expect(posts.statusCode).toBe(405);
    expect(posts.headers.allow).toBe('GET, HEAD');
    const article = await app.inject({ method: 'PATCH', url: `/api/v1/article/${randomUUID()}` });
    expect(article.statusCode).toBe(405);
    expect(article.headers.allow?.split(', ')).toEqual(expect.arrayContaining(['GET', 'PUT', 'DELETE']));
    expect((await app.inject({ method: 'DELETE', url: '/api/v1/nope' })).statusCode).toBe(404);
  });

  it('names each invalid field', async () => {
    const response = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'x'.repeat(11) } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body/name', message: expect.stringContaining('10') }],
    });
  });

  it('refuses unknown properties rather than dropping them', async () => {
    const response = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'a', admin: true } });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });

  it('does not coerce body types: a string is not an array or a number', async () => {
    const asNumber = await app.inject({ method: 'POST', url: '/echo', payload: { name: 5 } });
    expect(asNumber.statusCode).toBe(400);
    const typed = await app.inject({ method: 'POST', url: '/typed', payload: { tags: 'one', count: '2' } });
    expect(typed.statusCode).toBe(400);
    expect(typed.json().details).toHaveLength(2);
  });

  it('still coerces query strings, which arrive as text', async () => {
    const response = await app.inject({ method: 'GET', url: '/query?count=2&tags=one' });
    expect(response.json()).toEqual({ count: 2, tags: ['one'] });
  });

  it('answers malformed JSON with INVALID_JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('INVALID_JSON');
  });

  it('caps the body size', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(bodyLimitBytes) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('BODY_TOO_LARGE');
  });

  it('refuses an unsupported media type', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<name/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('hides unexpected errors behind a bare 500', async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      statusCode: 500,
      code: 'INTERNAL_ERROR',
      error: 'Internal Server Error',
      message: 'Internal server error',
    });
    expect(response.body).not.toContain('secret_table');
  });

  it('serves the OpenAPI document', async () => {
    const response = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ openapi: '3.0.3', paths: { '/health': {}, '/ready': {} } });
  });
});
