import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, dataOf, requestTimeoutMs } from '../../src/lib/api-client';
import { ApiError, errorMessage } from '../../src/lib/api-error';
import { setCsrfToken } from '../../src/lib/csrf-token';
import { setUpDashboardApi } from '../support/dashboard-test-app';
import { queryHarness } from '../support/query-harness';

// The dashboard's one API client (openapi-fetch and its middleware) against the real API: the CSRF
// header on writes, the house error shape as ApiError, query and path encoding; and, with a fetch that
// never answers or fails (the only way to meet them), the 30 s bound and the network error.

const server = await setUpDashboardApi();
afterEach(() => setCsrfToken(null));

async function signedInAdmin() {
  const admin = await server.insertAdmin();
  await server.signIn(admin.email);
  return queryHarness().signedIn();
}

const newSite = (slug: string) => ({ body: { name: `Site ${slug}`, slug } });
const lastCall = () => server.api().calls.at(-1);

describe('requests to the real API', () => {
  it('sends the CSRF token with every write and none with a read, and asks for JSON', async () => {
    const session = await signedInAdmin();
    await dataOf(api.GET('/api/v1/site'));
    expect(lastCall()?.headers).toMatchObject({ accept: 'application/json' });
    expect(lastCall()?.headers).not.toHaveProperty('x-csrf-token');

    const site = await dataOf(api.POST('/api/v1/site', newSite('harbour-news')));
    expect(site).toMatchObject({ slug: 'harbour-news', name: 'Site harbour-news' });
    expect(lastCall()).toMatchObject({ method: 'POST', status: 201 });
    expect(lastCall()?.headers).toMatchObject({
      'x-csrf-token': session?.csrfToken,
      'content-type': 'application/json',
    });

    // A write without a body says no content type (the API refuses an empty JSON body).
    await api.DELETE('/api/v1/site/{id}', { params: { path: { id: site.id } } });
    expect(lastCall()).toMatchObject({ method: 'DELETE', status: 204 });
    expect(lastCall()?.headers).not.toHaveProperty('content-type');
    expect(lastCall()?.headers).toHaveProperty('x-csrf-token', session?.csrfToken);
  });

  it("throws the API's refusal of a write without the token as ApiError", async () => {
    await signedInAdmin();
    setCsrfToken(null);
    const refused = await api.POST('/api/v1/site', newSite('no-token')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 403, code: 'CSRF_TOKEN_INVALID' });
    expect(await server.db.selectFrom('sites').where('slug', '=', 'no-token').execute()).toEqual([]);
  });

  it('throws a validation error with its details per field, said in words', async () => {
    await signedInAdmin();
    const refused = await api
      .POST('/api/v1/site', { body: { name: '', slug: 'Not A Slug' } })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    const { details } = refused as ApiError;
    expect(details.length).toBeGreaterThan(0);
    expect(details.every((issue) => typeof issue.message === 'string')).toBe(true);
    expect(errorMessage(refused)).not.toContain('must NOT');
  });

  it("throws a missing resource as ApiError with the API's code and message", async () => {
    await signedInAdmin();
    const id = '00000000-0000-4000-8000-000000000000';
    const missing = await api
      .GET('/api/v1/publisher/{id}', { params: { path: { id } } })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404 });
    expect((missing as ApiError).code).toMatch(/NOT_FOUND$/);
    expect((missing as ApiError).message).not.toBe('');
  });

  it('sends the 401 of a signed-out visitor as ApiError UNAUTHORIZED (no dialog here: at once)', async () => {
    const answer = await api.GET('/api/v1/site').catch((error: unknown) => error);
    expect(answer).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('leaves empty query values out and encodes path parameters', async () => {
    await signedInAdmin();
    await dataOf(
      api.GET('/api/v1/article', { params: { query: { q: 'a b', tag: '', site: undefined, page: 2 } } }),
    );
    expect(lastCall()?.url).toBe('/api/v1/article?q=a+b&page=2');
    await api
      .GET('/api/v1/article/{id}', { params: { path: { id: 'a b/c?d' } } })
      .catch((error: unknown) => error);
    expect(lastCall()?.url).toBe('/api/v1/article/a%20b%2Fc%3Fd');
  });
});

describe('answers that never come or are not the API’s', () => {
  afterEach(() => vi.useRealTimers());

  /** A fetch that answers nothing until its request is aborted, as a hung server. */
  const hangingFetch = vi.fn(
    (request: Request) =>
      new Promise<Response>((_resolve, reject) => {
        if (request.signal.aborted) reject(request.signal.reason);
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      }),
  );

  it(`gives up after ${requestTimeoutMs / 1000} s with ApiError TIMEOUT`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('fetch', hangingFetch);
    const answer = api.GET('/api/v1/site').catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(requestTimeoutMs - 1);
    expect(hangingFetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await answer).toMatchObject({ status: 0, code: 'TIMEOUT' });
    expect(errorMessage(await answer)).toBe('The server did not answer in time. Try again.');
  });

  it('stops the clock once the answer came, an error answer too', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const signals: AbortSignal[] = [];
    vi.stubGlobal('fetch', async (request: Request) => {
      signals.push(request.signal);
      return Response.json({ data: [] }, { status: signals.length === 1 ? 200 : 404 });
    });
    await dataOf(api.GET('/api/v1/site'));
    await api.GET('/api/v1/site').catch(() => {});
    await vi.advanceTimersByTimeAsync(requestTimeoutMs * 2);
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false]);
  });

  it("lets the caller's own abort (a cancelled query) fail as the abort it is", async () => {
    vi.stubGlobal('fetch', hangingFetch);
    const controller = new AbortController();
    const answer = api.GET('/api/v1/site', { signal: controller.signal }).catch((error: unknown) => error);
    controller.abort();
    const error = await answer;
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('throws a fetch that fails (no connection) as ApiError NETWORK', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const error = await api.GET('/api/v1/site').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK' });
    expect(errorMessage(error)).toBe('Could not reach the server. Check your connection and try again.');
  });

  it('throws an answer that is not the house shape with a generic message by status', async () => {
    vi.stubGlobal('fetch', async () => new Response('<h1>Bad gateway</h1>', { status: 502 }));
    expect(await api.GET('/api/v1/site').catch((error: unknown) => error)).toMatchObject({
      status: 502,
      code: 'INTERNAL_ERROR',
      message: 'The server had a problem. Try again in a moment.',
    });
    vi.stubGlobal('fetch', async () => new Response(null, { status: 418 }));
    expect(await api.GET('/api/v1/site').catch((error: unknown) => error)).toMatchObject({
      status: 418,
      code: 'HTTP_ERROR',
      message: 'The request failed (HTTP 418).',
    });
  });
});
