import { ApiError, isSessionExpired } from './api-error';
import { canReauthenticate, waitForSignIn } from './reauth';

// The one way the dashboard talks to the API: same origin, the session cookie, the CSRF header on every
// state-changing request, a bounded wait, and the house error shape turned into ApiError. A signed-in
// page's request that meets an ended session waits for the sign-in dialog and is sent again (reauth.ts).

const apiPrefix = '/api/v1';
/** No request waits longer than this (a feed test fetches a remote feed: 20 s deadline on the server). */
export const requestTimeoutMs = 30_000;

// The CSRF token lives in memory only (never localStorage): it comes with the session and is lost on reload,
// when GET /auth/session hands it out again.
let csrfToken: string | null = null;
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers, e.g. `if-match` for a conditional save. */
  headers?: Record<string, string>;
}

/** `/api/v1<path>?<query>`, leaving out empty values. */
export function apiUrl(path: string, query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${apiPrefix}${path}${search ? `?${search}` : ''}`;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiExchange<T>(path, options)).body;
}

/** The answer's body with its headers (an `ETag` to send back as `If-Match`). */
export async function apiExchange<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ body: T; headers: Headers }> {
  for (;;) {
    // A CSRF token in memory means the page believes it is signed in (it comes and goes with the session).
    const signedIn = csrfToken !== null;
    try {
      return await exchangeOnce<T>(path, options);
    } catch (error) {
      // Still signed in when the answer came (not signed out meanwhile), and someone can sign in again.
      const stillSignedIn = signedIn && csrfToken !== null;
      if (!(stillSignedIn && isSessionExpired(error) && canReauthenticate() && !isSessionRoute(path)))
        throw error;
      // Nothing was done by the server (401 comes before any handler): the same request is safe to send
      // again, with the new session's CSRF token.
      await waitForSignIn(error, options.signal);
    }
  }
}

/** Sign-in, sign-out and the session read answer 401 as a result, not as "the session ended meanwhile". */
const isSessionRoute = (path: string) => path === '/auth/session' || path.startsWith('/auth/session?');

async function exchangeOnce<T>(
  path: string,
  options: RequestOptions,
): Promise<{ body: T; headers: Headers }> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), requestTimeoutMs);
  const onAbort = () => timeout.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: timeout.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (timeout.signal.aborted) {
      throw new ApiError(0, 'TIMEOUT', 'The server did not answer in time. Try again.');
    }
    throw new ApiError(0, 'NETWORK', 'Could not reach the server. Check your connection and try again.');
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }

  const text = await response.text();
  const body = text ? parseJson(text) : undefined;
  if (!response.ok) throw ApiError.fromResponse(response.status, body);
  return { body: body as T, headers: response.headers };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const api = {
  get: <T>(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal) =>
    apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'POST', body }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PUT', body }),
  delete: <T = void>(path: string) => apiRequest<T>(path, { method: 'DELETE' }),
};
